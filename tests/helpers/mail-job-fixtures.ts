import { db } from "@/lib/db";
import { runMailJob } from "@/lib/mail/mail-job";
import { settleAfterWork } from "./after-response";

// The mail job reads SMTP_URL and MAIL_OUTBOX_DIR through getEnv(), which
// caches the environment; the mail tests mock lib/env so that each call
// parses process.env again and a test can switch servers:
//
//   vi.mock("@/lib/env", async () => {
//     const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
//     return { getEnv: () => parseEnv(process.env) };
//   });

/** Runs the job (as one or more instances at once) until a run finds nothing left to send. */
export async function drainMail(now = new Date(), instances = ["a"]) {
  await settleAfterWork(); // what an action queues after its answer is there before the job runs
  let sent = 0;
  for (let round = 0; round < 50; round++) {
    const results = await Promise.all(instances.map((instance) => runMailJob(now, db, instance)));
    sent += results.reduce((sum, result) => sum + result.sent, 0);
    if (results.every((result) => result.sent + result.failed === 0)) return sent;
  }
  throw new Error("the mail queue did not drain in 50 runs");
}
