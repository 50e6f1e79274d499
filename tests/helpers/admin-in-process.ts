import { PassThrough } from "node:stream";

/** The operator CLI's entry point (npm run admin) without a process: its exit code and what it printed. */
export async function adminInProcess(
  args: string[],
  input = "",
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { runAdmin } = await import("@/lib/admin/cli");
  const [stdin, stdout, stderr] = [new PassThrough(), new PassThrough(), new PassThrough()];
  stdin.end(input);
  let out = "";
  let err = "";
  stdout.on("data", (chunk) => (out += chunk));
  stderr.on("data", (chunk) => (err += chunk));
  const code = await runAdmin(args, { stdin, stdout, stderr });
  return { code, stdout: out, stderr: err };
}
