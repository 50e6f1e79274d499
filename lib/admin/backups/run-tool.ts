import "server-only";
import { spawn } from "node:child_process";
import { CheckFailed } from "../command-support";

// The programs a backup leans on (tar, pg_dump, pg_restore), run without a
// shell: arguments are never parsed twice, and a password travels in the
// child's environment only (never in its arguments, which the process list
// shows to every user of the machine).

export interface Tool {
  name: string;
  /** What to install when it is missing, said in the error. */
  install: string;
}

/** The program is not installed: the message says what to install. */
export class ToolMissing extends CheckFailed {}

export const TAR: Tool = { name: "tar", install: "install tar (Debian and Ubuntu: apt-get install tar)" };

const POSTGRES_CLIENT =
  "install PostgreSQL's client programs, of the server's major version or later (Debian and Ubuntu: apt-get install postgresql-client)";
export const PG_DUMP: Tool = { name: "pg_dump", install: POSTGRES_CLIENT };
export const PG_RESTORE: Tool = { name: "pg_restore", install: POSTGRES_CLIENT };

/** What a failed run said last: enough to act on, never the whole of a long output. */
function lastLines(text: string): string {
  const lines = text.trim().split("\n").filter(Boolean);
  return lines.slice(-3).join(" / ") || "no message";
}

/** Runs the tool to its end and answers its standard output; a missing program or a non-zero exit is a CheckFailed. */
export function runTool(tool: Tool, args: string[], env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(tool.name, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    const stdout: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    let stderr = "";
    child.stderr.on("data", (chunk) => {
      if (stderr.length < 16_000) stderr += String(chunk);
    });
    child.on("error", (error: NodeJS.ErrnoException) => {
      reject(
        error.code === "ENOENT"
          ? new ToolMissing(`${tool.name} was not found: ${tool.install}.`)
          : new CheckFailed(`${tool.name} could not be started: ${error.message}`),
      );
    });
    // The tools' messages name hosts, users and files, never the password: it is not in their arguments.
    child.on("close", (code) => {
      if (code === 0) resolve(Buffer.concat(stdout).toString("utf8"));
      else reject(new CheckFailed(`${tool.name} failed (exit ${code}): ${lastLines(stderr)}`));
    });
  });
}
