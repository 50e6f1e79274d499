// What each step of the gate costs, in microseconds, measured in-process
// (npm run bench prints it; docs/benchmark.md keeps the figures): each step's
// own function, called in a loop on this machine, the median of 5 rounds.
// What the saturation rows cannot say is where the time goes; this says it.
//   tsx --conditions=react-server scripts/bench/gate-steps.mts   (DATABASE_URL: PostgreSQL, for the round trips)
// Prints one JSON object: { step: µs per call }.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import Database from "better-sqlite3";
import pg from "pg";
process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
process.env.KEYPORT_LOG_TO_STDERR = "1";
const { generateApiKey, parseApiKey } = await import("../../lib/keys/format");
const { keyDigest } = await import("../../lib/keys/digest");
const { cachedKeyLookup } = await import("../../lib/keys/key-cache");
const { UNRESTRICTED } = await import("../../lib/keys/restrictions");
const { walChangeMark } = await import("../../lib/keys/wal-change-mark");
const { Lease } = await import("../../lib/instances/lease");
const { MemoryRateLimitStore, WINDOW_MS } = await import("../../lib/public-api/rate-limit");
const { UsageBuffer } = await import("../../lib/usage/buffer");
const { loadMetrics, NO_SOURCES } = await import("../../lib/metrics/registry");

const ROUNDS = 5;

/** µs per call of `step`, the median of ROUNDS rounds of `calls` calls (after one round of warm-up). */
async function perCall(step: (i: number) => unknown, calls: number): Promise<number> {
  const rounds: number[] = [];
  for (let round = -1; round < ROUNDS; round++) {
    const started = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) {
      const result = step(i);
      if (result instanceof Promise) await result;
    }
    if (round >= 0) rounds.push(Number(process.hrtime.bigint() - started) / 1000 / calls);
  }
  rounds.sort((a, b) => a - b);
  return rounds[ROUNDS >> 1]!;
}

const secret = generateApiKey("dev");
const digest = keyDigest(secret);
const key = {
  id: "k1",
  publicId: "key_bench",
  teamId: "t1",
  userId: "u1",
  environment: "dev" as const,
  revokedAt: null,
  expiresAt: null,
  successorId: null,
  lastUsedAt: null,
  restrictions: UNRESTRICTED,
  rateLimitByOperator: false,
  version: 1,
  decoy: false,
};
const lease = new Lease();
lease.renew(performance.now() + 3_600_000);
const cache = cachedKeyLookup({ byDigest: () => key, versionOf: () => 1 }, { trust: { trusted: () => lease.holds() } });
cache.find(digest);

// SQLite's change mark: the WAL index header of a real database in WAL mode.
const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-steps-"));
const file = path.join(dir, "steps.db");
const sqlite = new Database(file);
sqlite.pragma("journal_mode = WAL");
sqlite.exec("CREATE TABLE t (v INTEGER); INSERT INTO t VALUES (1)");
const mark = walChangeMark(file);
const versionRead = sqlite.prepare("SELECT v FROM t WHERE rowid = ?");

const limits = new MemoryRateLimitStore();
const usage = new UsageBuffer({ write: async () => {}, intervalMs: 60_000, maxEvents: 1_000_000 });
const now = Date.now();
const line = (i: number) =>
  JSON.stringify({
    time: new Date(now + i).toISOString(),
    level: "info",
    event: "api.request",
    request_id: `req_${i}`,
    key_id: "key_bench",
    key_cache: "hit",
    route: "list_models",
    method: "GET",
    status: 200,
    duration_ms: 0.4,
  });

// The metrics' per-answer recorder, as the gate calls it (METRICS_PORT set): a mix of routes, classes and codes.
const metrics = await loadMetrics(NO_SOURCES);
const answers = [
  ["list_models", 200, undefined],
  ["retrieve_model", 200, undefined],
  ["list_models", 401, "revoked_api_key"],
  [null, 404, "not_found"],
] as const;

const costs: Record<string, number> = {
  "parse and checksum": await perCall(() => parseApiKey(secret), 200_000),
  digest: await perCall(() => keyDigest(secret), 200_000),
  "cache (a hit, the lease checked)": await perCall(() => cache.find(digest), 200_000),
  "change check, SQLite: WAL header read": await perCall(() => mark.read(), 100_000),
  "change check, SQLite: version read (no header shortcut)": await perCall(() => versionRead.get(1), 100_000),
  "change check, PostgreSQL: the lease": await perCall(() => lease.holds(), 1_000_000),
  "limits, in process": await perCall(
    (i) => limits.hitPair({ key: `rl:${i % 1000}`, keyLimit: 1e9, account: "rlt:t1:dev" }, WINDOW_MS, now),
    200_000,
  ),
  "usage event recorded": await perCall(
    (i) =>
      usage.record({
        requestId: `req_${i}`,
        keyId: "k1",
        userId: "u1",
        route: "list_models",
        status: 200,
        errorCode: null,
        latencyMs: 1,
        ip: "127.0.0.1",
        userAgent: "bench",
        createdAt: new Date(now),
      }),
    200_000,
  ),
  "log line (JSON)": await perCall(line, 200_000),
  "metrics: one answer counted (route, class, latency, code)": await perCall((i) => {
    const [route, status, code] = answers[i & 3]!;
    metrics.gate.request(route, status, 0.0002 + (i % 7) * 0.0001, code);
  }, 1_000_000),
};

const databaseUrl = process.env.DATABASE_URL;
if (databaseUrl?.startsWith("postgres")) {
  // A round trip, for scale: what every request paid before the lease (the version read), and what a batch of
  // counters costs the one turn that carries it.
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const select = { name: "steps_version", text: "SELECT 1 AS v" };
  costs["PostgreSQL round trip (one prepared SELECT), for scale"] = await perCall(() => client.query(select), 5_000);
  await client.end();
}
mark.close();
sqlite.close();
process.stdout.write(`${JSON.stringify(costs)}\n`);
process.exit(0);
