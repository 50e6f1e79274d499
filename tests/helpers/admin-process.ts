import { spawn } from "node:child_process";
import path from "node:path";
import { projectRoot } from "./test-database";

/**
 * The operator CLI run as a process, the way an operator runs it (npm run admin; about 4 s a start under tsx): its
 * exit code and what it printed. `env` is added to this process's environment (another DATABASE_URL, say).
 */
export function processAdmin(
  args: string[],
  stdin = "",
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      path.join(projectRoot, "node_modules", ".bin", "tsx"),
      ["--conditions=react-server", "scripts/admin.mts", ...args],
      { cwd: projectRoot, env: { ...process.env, ...env } },
    );
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
