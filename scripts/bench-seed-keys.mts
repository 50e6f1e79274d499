// Fills the database with keys for the benchmark's many-keys rows (npm run bench
// calls it with DATABASE_URL set):
//   tsx --conditions=react-server scripts/bench-seed-keys.mts TOTAL [--real N --secrets FILE]
// TOTAL keys in all, for one new user. N of them are real keys, made as
// lib/keys/lifecycle.ts makes them (generateApiKey, the digest, a display
// fragment), whose secrets go to FILE (one a line, readable by this user
// only) for the bench to call with; they are never printed. The rest carry
// random digests, as real keys would. Rows go in as multi-row INSERTs in one
// transaction: the ORM's per-row work would take minutes for a million rows.
import { randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
process.env.AUTH_SECRET ??= randomBytes(32).toString("base64url");
process.env.ENCRYPTION_KEY ??= randomBytes(32).toString("base64");
process.env.KEYPORT_LOG_TO_STDERR = "1";
const { db, dbProvider } = await import("../lib/db");
const { keyDigest } = await import("../lib/keys/digest");
const { displayFragment, generateApiKey, newKeyId } = await import("../lib/keys/format");
const { toBase62 } = await import("../lib/keys/base62");
const { insertAccount } = await import("../lib/auth/accounts");
const { personalTeamId } = await import("../lib/teams/personal-team");

const ROWS_PER_INSERT = 5_000;
const TRANSACTION_TIMEOUT_MS = 10 * 60_000;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { real: { type: "string", default: "0" }, secrets: { type: "string" } },
});
const total = Number(positionals[0] ?? 100_000);
const real = Number(values.real);
if (!Number.isInteger(total) || !Number.isInteger(real) || real > total || (real > 0 && !values.secrets)) {
  throw new Error("usage: bench-seed-keys.mts TOTAL [--real N --secrets FILE], with N <= TOTAL");
}

// An account as the app makes one (its personal team owns the keys: ApiKey.teamId is required).
const user = await db.$transaction((tx) => insertAccount(tx, { email: `bench-bulk-${Date.now()}@example.com` }));
const teamId = await personalTeamId(db, user.id);
// As the Prisma adapters store a DateTime (ISO 8601, which PostgreSQL reads as UTC); identical for every row.
const createdAt = new Date().toISOString().replace("Z", "+00:00");
const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

interface Row {
  id: string;
  publicId: string;
  digest: string;
  displayFragment: string;
}

function realKey(secrets: string[]): Row {
  const secret = generateApiKey("dev");
  secrets.push(secret);
  const id = randomBytes(12).toString("hex");
  return { id, publicId: newKeyId(), digest: keyDigest(secret), displayFragment: displayFragment(secret) };
}

/**
 * Filler rows: random digests, inserted in ascending order, with row ids and
 * public ids that ascend with them, so that each index grows in order rather
 * than at random places (which takes minutes on PostgreSQL for a million
 * rows). One buffer of random bytes: a randomBytes call per value (as
 * newKeyId makes) would take most of a minute.
 */
function fillerKeys(count: number): Row[] {
  const bytes = randomBytes(count * 32);
  const digests = Array.from({ length: count }, (_, i) => bytes.toString("hex", i * 32, (i + 1) * 32)).sort();
  return digests.map((digest, i) => ({
    id: `bench${String(i).padStart(19, "0")}`,
    publicId: `key_${toBase62(i, 16)}`,
    digest,
    displayFragment: "sk_dev_xxxx…xxxx",
  }));
}

function insertStatement(rows: Row[]): string {
  const values = rows.map((row) =>
    [row.id, row.publicId, teamId, user.id, "dev", "bench", row.digest, row.displayFragment, createdAt]
      .map(quote)
      .join(", "),
  );
  return `INSERT INTO "ApiKey" ("id", "publicId", "teamId", "userId", "environment", "label", "digest", "displayFragment", "createdAt")
    VALUES (${values.join("), (")})`;
}

const secrets: string[] = [];
const rows = [...Array.from({ length: real }, () => realKey(secrets)), ...fillerKeys(total - real)];
await db.$transaction(
  async (tx) => {
    // SQLite: a page cache that holds the indexes, so that inserting into them does not spill pages to disk.
    if (dbProvider() === "sqlite") await tx.$executeRawUnsafe("PRAGMA cache_size = -1000000");
    for (let done = 0; done < total; done += ROWS_PER_INSERT) {
      await tx.$executeRawUnsafe(insertStatement(rows.slice(done, done + ROWS_PER_INSERT)));
    }
  },
  { timeout: TRANSACTION_TIMEOUT_MS },
);
// Fresh statistics, so that the planner does not wait for autovacuum to notice a million new rows mid-benchmark.
if (dbProvider() === "postgres") await db.$executeRawUnsafe('ANALYZE "ApiKey"');
if (values.secrets) writeFileSync(values.secrets, secrets.length > 0 ? `${secrets.join("\n")}\n` : "", { mode: 0o600 });
await db.$disconnect();
console.log(JSON.stringify({ keys: total, real: secrets.length }));
