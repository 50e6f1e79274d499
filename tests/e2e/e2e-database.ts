import { randomBytes } from "node:crypto";
import path from "node:path";
import Database from "better-sqlite3";

// The e2e server's throw-away SQLite database, for what a test cannot make
// happen through the app (time passing), or should not spend a browser on.

function open(options?: Database.Options) {
  return new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"), options);
}

/** A time written the way Prisma's SQLite adapter wrote `sample` (milliseconds, or ISO text with its zone). */
export function likeStored(sample: string | number, ms: number): string | number {
  if (typeof sample === "number") return ms;
  const iso = new Date(ms).toISOString();
  return sample.endsWith("Z") ? iso : `${iso.slice(0, -1)}${sample.slice(-6)}`;
}

/** Makes every session of the account look as if it last proved itself 11 minutes ago. */
export function ageSessions(email: string) {
  const database = open();
  try {
    const { userId } = database.prepare(`SELECT "id" AS "userId" FROM "User" WHERE "email" = ?`).get(email) as {
      userId: string;
    };
    const sample = database
      .prepare(`SELECT "verifiedAt" AS "value" FROM "Session" WHERE "userId" = ? LIMIT 1`)
      .get(userId) as { value: string | number };
    const then = likeStored(sample.value, Date.now() - 11 * 60 * 1000);
    database.prepare(`UPDATE "Session" SET "verifiedAt" = ? WHERE "userId" = ?`).run(then, userId);
  } finally {
    database.close();
  }
}

/**
 * Records `count` failed sign-ins for `email`, each from another address, as
 * the server records them: someone guessing the owner's password from
 * elsewhere. (Through the app they would come from 127.0.0.1 and lock the
 * address every other test signs in from.)
 */
export function failedSignIns(email: string, count: number) {
  const database = open();
  try {
    const sample = database.prepare(`SELECT "createdAt" AS "value" FROM "AuthAttempt" LIMIT 1`).get() as {
      value: string | number;
    };
    const insert = database.prepare(
      `INSERT INTO "AuthAttempt" ("id", "kind", "email", "ip", "success", "createdAt") VALUES (?, 'sign_in', ?, ?, 0, ?)`,
    );
    for (let i = 0; i < count; i++) {
      const ip = `203.0.113.${(i % 250) + 1}`;
      insert.run(`e2e${randomBytes(10).toString("hex")}`, email, ip, likeStored(sample.value, Date.now() - 1000 + i));
    }
  } finally {
    database.close();
  }
}

/** How many messages to `email` the mail job has not sent yet (a sent one has its sealed link cleared). */
export function unsentMailTo(email: string): number {
  const database = open({ readonly: true });
  try {
    const row = database
      .prepare(`SELECT COUNT(*) AS "n" FROM "MailMessage" WHERE "recipient" = ? AND "sentAt" IS NULL`)
      .get(email) as { n: number };
    return row.n;
  } finally {
    database.close();
  }
}

const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Copies the account's key `label` once per entry of `labels`, each made a
 * millisecond after the one before: filler rows for a test about a full
 * page, which would otherwise spend a minute in the create dialog that other
 * tests already drive. The copies have random digests, so no secret matches
 * them, and are never used.
 */
export function copyKey(email: string, label: string, labels: string[]) {
  const database = open();
  try {
    const source = database
      .prepare(
        `SELECT "ApiKey".* FROM "ApiKey" JOIN "User" ON "User"."id" = "ApiKey"."userId"
         WHERE "User"."email" = ? AND "ApiKey"."label" = ?`,
      )
      .get(email, label) as Record<string, unknown> & { createdAt: string | number };
    const columns = Object.keys(source);
    const insert = database.prepare(
      `INSERT INTO "ApiKey" (${columns.map((c) => `"${c}"`).join(", ")}) VALUES (${columns.map((c) => `@${c}`).join(", ")})`,
    );
    const created = typeof source.createdAt === "number" ? source.createdAt : Date.parse(source.createdAt);
    labels.forEach((copyLabel, i) => {
      const id = [...randomBytes(16)].map((byte) => BASE62[byte % 62]).join("");
      insert.run({
        ...source,
        id: `copy${id}`,
        publicId: `key_${id}`,
        digest: randomBytes(32).toString("hex"),
        label: copyLabel,
        createdAt: likeStored(source.createdAt, created + i + 1),
      });
    });
  } finally {
    database.close();
  }
}

/**
 * Makes the failed sign-ins of the suite's own address look 16 minutes old, as
 * if the lockout's window had passed: the tests before the log scan fail
 * sign-ins, codes and confirmations from ::1 on purpose, close to the 10 that
 * lock an address out (one run did lock the scan's own sign-up out). Only
 * failures are moved; nothing else about them changes.
 */
export function letLockoutWindowPass() {
  const database = open();
  try {
    const rows = database
      .prepare(`SELECT "id", "createdAt" AS "value" FROM "AuthAttempt" WHERE "kind" = 'sign_in' AND "success" = 0`)
      .all() as { id: string; value: string | number }[];
    const update = database.prepare(`UPDATE "AuthAttempt" SET "createdAt" = ? WHERE "id" = ?`);
    for (const row of rows) {
      const at = typeof row.value === "number" ? row.value : Date.parse(row.value);
      update.run(likeStored(row.value, at - 16 * 60 * 1000), row.id);
    }
  } finally {
    database.close();
  }
}

/** Marks all but `left` of the account's recovery codes used, as signing in with them would. */
export function useRecoveryCodes(email: string, left: number) {
  const database = open();
  try {
    const { userId } = database.prepare(`SELECT "id" AS "userId" FROM "User" WHERE "email" = ?`).get(email) as {
      userId: string;
    };
    const sample = database
      .prepare(`SELECT "createdAt" AS "value" FROM "RecoveryCode" WHERE "userId" = ? LIMIT 1`)
      .get(userId) as { value: string | number };
    const ids = database
      .prepare(`SELECT "id" FROM "RecoveryCode" WHERE "userId" = ? AND "usedAt" IS NULL`)
      .all(userId) as { id: string }[];
    const use = database.prepare(`UPDATE "RecoveryCode" SET "usedAt" = ? WHERE "id" = ?`);
    for (const { id } of ids.slice(left)) use.run(likeStored(sample.value, Date.now()), id);
  } finally {
    database.close();
  }
}
