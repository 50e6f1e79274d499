// The benchmark's revocation row (scripts/bench/revocation.mjs) revokes keys
// through this process: an instance of the app in all but serving (its
// runtime's change listener started, as server.mjs starts it), which does what
// the dashboard's revoke does on the instance that serves it: the domain's
// revokeKey, then the fence through this instance's own listener
// (lib/instances). It reads commands on stdin, one a line, and answers one
// JSON line each on stdout:
//   create N   makes N development keys for a new user; answers [{ id, secret }]
//              (the bench sends these keys; the secrets go over this pipe only)
//   revoke ID  answers { ms, fenceMs, confirmed, total }: from the start of the revoke to the fence's answer,
//              and of that the fence alone (from the revoke's commit)
//   tsx --conditions=react-server scripts/bench/revoker.mts   (DATABASE_URL set; PostgreSQL)
import { randomBytes } from "node:crypto";
import { createInterface } from "node:readline";
process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
process.env.KEYPORT_LOG_TO_STDERR = "1";
const { runtime } = await import("../../lib/runtime/runtime");
const { createKey, revokeKey } = await import("../../lib/keys/lifecycle");
const { insertAccount } = await import("../../lib/auth/accounts");

const app = runtime();
const listener = app.instance;
if (!listener) throw new Error("the revocation row runs on PostgreSQL only");
listener.start();
while (!listener.trusted()) await new Promise((resolve) => setTimeout(resolve, 20));

/** Each key's maker: a team holds at most 100 keys in use (ACTIVE_KEY_CAP), so a new user makes every hundred. */
const makers = new Map<string, { userId: string; ip: null; userAgent: string }>();
const answer = (value: unknown) => process.stdout.write(`${JSON.stringify(value)}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  const [command, argument] = line.trim().split(" ");
  const actor = argument ? makers.get(argument) : undefined;
  if (command === "create") {
    const keys = [];
    let maker: { userId: string; ip: null; userAgent: string } | undefined;
    for (let i = 0; i < Number(argument); i++) {
      if (i % 100 === 0) {
        const email = `revoker-${randomBytes(6).toString("hex")}@example.com`;
        const user = await app.db.$transaction((tx) => insertAccount(tx, { email }));
        maker = { userId: user.id, ip: null, userAgent: "keyport-bench" };
      }
      const made = await createKey(maker!, { label: `revoked ${i}`, environment: "dev", expiresAt: null });
      makers.set(made.key.id, maker!);
      keys.push({ id: made.key.id, secret: made.secret });
    }
    answer(keys);
  } else if (command === "revoke" && argument && actor) {
    const started = performance.now();
    await revokeKey(actor, argument, null);
    const committed = performance.now();
    const fence = await app.confirmChange();
    const done = performance.now();
    answer({ ms: done - started, fenceMs: done - committed, confirmed: fence?.confirmed, total: fence?.total });
  } else {
    answer({ error: `unknown command: ${line}` });
  }
}
await app.close();
process.exit(0);
