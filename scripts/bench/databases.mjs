// The databases npm run bench measures on, each thrown away after its run:
// SQLite (a file in a temporary folder), and when DATABASE_URL names a
// PostgreSQL server, a new database created there, once alone and once with a
// redis-server this script starts (the rate-limit counters then live in Redis).
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { startRedis, stop } from "./processes.mjs";

const root = path.resolve(import.meta.dirname, "..", "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);

/** A database created on the server at `serverUrl`, dropped by `close`. */
async function throwAwayPostgres(serverUrl) {
  const name = `keyport_bench_${randomBytes(4).toString("hex")}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async close() {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await admin.end();
    },
  };
}

/**
 * The targets, in order: { label, open() }, where open() resolves to
 * { env: { DATABASE_URL, REDIS_URL? }, close() }.
 */
export function benchTargets(serverUrl = process.env.DATABASE_URL) {
  const targets = [
    {
      label: "SQLite",
      async open() {
        const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-bench-db-"));
        return {
          env: { DATABASE_URL: `file:${path.join(dir, "bench.db")}` },
          close: async () => rmSync(dir, { recursive: true, force: true }),
        };
      },
    },
  ];
  if (serverUrl && /^postgres(ql)?:\/\//.test(serverUrl))
    targets.push(
      {
        label: "PostgreSQL",
        async open() {
          const database = await throwAwayPostgres(serverUrl);
          return { env: { DATABASE_URL: database.url }, close: () => database.close() };
        },
      },
      {
        label: "PostgreSQL + Redis",
        async open() {
          const database = await throwAwayPostgres(serverUrl);
          const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-bench-redis-"));
          const redis = await startRedis(dir);
          return {
            env: { DATABASE_URL: database.url, REDIS_URL: redis.url },
            async close() {
              await stop(redis.child);
              rmSync(dir, { recursive: true, force: true });
              await database.close();
            },
          };
        },
      },
    );
  // BENCH_TARGETS: a comma-separated list of the labels to run (e.g. "PostgreSQL + Redis"); all by default.
  const wanted = process.env.BENCH_TARGETS?.split(",").map((label) => label.trim());
  return wanted ? targets.filter((target) => wanted.includes(target.label)) : targets;
}

/** Migrates the database in `env` and creates a user with one dev key; the key's secret. */
export function prepareDatabase(env) {
  execFileSync(bin("prisma"), ["migrate", "deploy"], { cwd: root, env, stdio: "ignore" });
  const admin = (args, input) =>
    execFileSync(bin("tsx"), ["--conditions=react-server", "scripts/admin.mts", ...args], {
      cwd: root,
      env,
      input,
      encoding: "utf8",
      stdio: ["pipe", "pipe", "ignore"],
    }).trim();
  const email = `bench-${Date.now()}@example.com`;
  admin(["user:create", "--email", email], "a long enough password\n");
  return admin(["key:create", "--email", email, "--env", "dev", "--label", "bench"]);
}

/** TOTAL keys for a new user, REAL of them real with their secrets written to `secretsFile` (scripts/bench-seed-keys.mts). */
export function seedKeys(env, { total, real, secretsFile }) {
  const args = ["scripts/bench-seed-keys.mts", String(total), "--real", String(real)];
  if (secretsFile) args.push("--secrets", secretsFile);
  execFileSync(bin("tsx"), ["--conditions=react-server", ...args], { cwd: root, env, stdio: "ignore" });
}
