import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";

// The operator CLI against the e2e server's database, as an operator runs it
// (`npm run admin --`): teams and members are made this way until invitations
// land (the members issue).

const run = promisify(execFile);

/** Runs `npm run -s admin -- ...args` on the e2e database; returns what it printed, parsed when it is JSON. */
export async function e2eAdmin(args: string[]): Promise<unknown> {
  const root = process.cwd();
  const { stdout } = await run(
    path.join(root, "node_modules", ".bin", "tsx"),
    ["--conditions=react-server", "scripts/admin.mts", ...args],
    {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: `file:${path.join(process.env.E2E_DATA_DIR!, "e2e.db")}`,
        AUTH_SECRET: process.env.E2E_AUTH_SECRET,
        ENCRYPTION_KEY: process.env.E2E_ENCRYPTION_KEY,
        PUBLIC_BASE_URL: `http://localhost:${process.env.E2E_PORT ?? 3210}`,
        KEYPORT_TEST_MODE: "1",
      },
    },
  );
  const text = stdout.trim();
  return text.startsWith("{") || text.startsWith("[") ? JSON.parse(text) : text;
}

/** Makes a team owned by `owner` with the others as members; returns its slug. */
export async function e2eTeam(name: string, owner: string, members: [email: string, role: string][] = []) {
  const team = (await e2eAdmin(["team:create", "--name", name, "--owner", owner])) as { slug: string };
  for (const [email, role] of members) {
    await e2eAdmin(["team:add-member", "--team", team.slug, "--email", email, "--role", role]);
  }
  return team.slug;
}
