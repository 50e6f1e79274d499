// Property-based, with two instances on PostgreSQL (tests/helpers/instances.ts):
// for any interleaving of requests to either instance, revocations, rotations
// that end the old key at once, scope edits (from an instance or from a
// process that serves nothing, as the operator CLI), and failures of instance
// B (its listener cut or stalled, its database connections cut) and of the
// database (every connection to it ended, as a restart ends them), no request
// sent after the change that refuses its key returned is accepted. An instance
// answers 503 while it cannot reach the database; that is allowed, an
// acceptance (200, or a 429 that only a verified key can get) is not.
import fc from "fast-check";
import pg from "pg";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db, dbProvider } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { createKey, revokeKey, rotateKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { UNRESTRICTED } from "@/lib/keys/restrictions";
import { runtime } from "@/lib/runtime/runtime";
import { bareAccount } from "../helpers/bare-account";
import { databaseProxy, type DatabaseProxy } from "../helpers/database-proxy";
import { proxies, startInstance, stopInstances, type Instance } from "../helpers/instances";
import { propertyRuns } from "../helpers/property-runs";

// 20 cases in CI; a tenth on a developer's machine (tests/helpers/property-runs.ts). A case with B's listener
// stalled waits out B's lease at each change (about 1.25 s).
const RUNS = propertyRuns(20);
const KEYS = 3;

type KeyState = "active" | "scoped" | "dead";
const via = fc.constantFrom("instance" as const, "cli" as const);
const key = fc.nat({ max: KEYS - 1 });
const operation = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant("request" as const), on: fc.constantFrom(0, 1), key }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("revoke" as const), key, via }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("rotate" as const), key, via }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("scope" as const), key, via, narrow: fc.boolean() }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant("fail" as const),
      what: fc.constantFrom("cut listener", "stall listener", "cut database", "restart database", "heal"),
    }),
  },
);

/**
 * What a PostgreSQL restart does to every client of this database: the server ends every connection (listeners,
 * pools, the test's own), and takes new ones at once. The pools open new connections on their next query.
 */
async function restartDatabase() {
  const admin = new pg.Client({ connectionString: getEnv().DATABASE_URL });
  await admin.connect();
  await admin.query(
    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
  );
  await admin.end();
  // The test's own pool drops each ended connection when it hears of it; until it has, a query may take one.
  for (let attempt = 0; ; attempt++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    try {
      for (let i = 0; i < 5; i++) await db.$queryRaw`SELECT 1`;
      return;
    } catch (error) {
      if (attempt >= 20) throw error;
    }
  }
}

/** What GET /api/v1/models must answer for a key in this state, if the instance can reach the database. */
const expected: Record<KeyState, number> = { active: 200, scoped: 403, dead: 401 };

describe.runIf(dbProvider() === "postgres")("two instances, any interleaving", () => {
  let a: Instance;
  let b: Instance;
  let listener: DatabaseProxy;
  let database: DatabaseProxy;

  beforeAll(async () => {
    listener = await databaseProxy(getEnv().DATABASE_URL);
    database = await databaseProxy(getEnv().DATABASE_URL);
    proxies.push(listener, database);
    a = await startInstance();
    b = await startInstance(listener.url, database.url);
  });
  afterAll(stopInstances);

  const heal = () => {
    listener.restore();
    listener.release();
    database.restore();
  };

  it("accepts no request sent after the change that refuses its key returned", async () => {
    let accepted = 0;
    let servedFromCache = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(operation, { minLength: 4, maxLength: 14 }), async (ops) => {
        heal();
        const user = await bareAccount(`fence-property.${randomUUID()}@example.com`);
        const actor = { userId: user.id, ip: null, userAgent: null };
        const keys: { publicId: string; secret: string; state: KeyState }[] = [];
        for (let i = 0; i < KEYS; i++) {
          const made = await createKey(actor, { label: `property ${i}`, environment: "dev", expiresAt: null });
          keys.push({ publicId: made.key.id, secret: made.secret, state: "active" });
        }
        const confirm = (from: "instance" | "cli") =>
          from === "instance" ? a.runtime.confirmChange() : runtime().confirmChange();
        for (const op of ops) {
          if (op.kind === "request") {
            const instance = op.on === 0 ? a : b;
            const held = keys[op.key]!;
            instance.reads();
            const { status } = await instance.models(held.secret);
            if (instance.reads() === 0) servedFromCache++;
            // B may be cut from its database, and either may find a connection the restart ended: 503, never an
            // acceptance of a key that must be refused.
            if (status === 503) continue;
            if (held.state === "active") expect([200, 429]).toContain(status);
            else expect(status).toBe(expected[held.state]);
            if (status === 200) accepted++;
          } else if (op.kind === "fail") {
            if (op.what === "cut listener") listener.cut();
            else if (op.what === "stall listener") listener.hold();
            else if (op.what === "cut database") database.cut();
            else if (op.what === "restart database") await restartDatabase();
            else heal();
          } else {
            const held = keys[op.key]!;
            if (held.state === "dead") continue;
            if (op.kind === "revoke") {
              await revokeKey(actor, held.publicId, null);
              await confirm(op.via);
              held.state = "dead";
            } else if (op.kind === "rotate") {
              const rotated = await rotateKey(actor, held.publicId, "now");
              await confirm(op.via);
              held.state = "dead";
              keys.push({ publicId: rotated.key.id, secret: rotated.secret, state: "active" });
            } else {
              const scopes = op.narrow ? (["files:write"] as const) : UNRESTRICTED.scopes;
              if ((held.state === "scoped") === op.narrow) continue;
              await updateRestrictions(actor, held.publicId, { ...UNRESTRICTED, scopes });
              await confirm(op.via);
              held.state = op.narrow ? "scoped" : "active";
            }
          }
        }
      }),
      { numRuns: RUNS },
    );
    heal();
    // The property saw keys accepted, and some of them from a cache with no database read: it can see a stale answer.
    expect(accepted).toBeGreaterThan(0);
    expect(servedFromCache).toBeGreaterThan(0);
    // A case with B's listener stalled waits out B's lease at each change: up to a minute and a half in CI.
  }, 180_000);
});
