// Runs once when a server instance starts. Checking the environment here makes
// a bad or missing variable (a weak AUTH_SECRET in production, say) stop
// start-up with a message naming it, instead of failing on the first request.
export async function register() {
  if (process.env.NEXT_RUNTIME === "nodejs") {
    const { checkEnvironmentOrExit } = await import("./lib/startup-check");
    checkEnvironmentOrExit();
    // Each instance runs a generation worker; leases in the database keep them from colliding.
    const { startGenerationWorker } = await import("./lib/generations/start-worker");
    startGenerationWorker();
    // And prunes what has passed its retention (docs/operations.md, "Retention").
    const { startMaintenance } = await import("./lib/maintenance/start-maintenance");
    startMaintenance();
    // And sends queued mail: security notices and links (docs/operations.md, "Email").
    const { startMailJob } = await import("./lib/mail/start-mail-job");
    startMailJob();
  }
}
