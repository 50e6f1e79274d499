import path from "node:path";
import Database from "better-sqlite3";

// The e2e server's throw-away SQLite database, for what a test cannot make
// happen through the app: time passing.

/** Makes every session of the account look as if it last proved itself 11 minutes ago. */
export function ageSessions(email: string) {
  const database = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"));
  try {
    const { userId } = database.prepare(`SELECT "id" AS "userId" FROM "User" WHERE "email" = ?`).get(email) as {
      userId: string;
    };
    const sample = database
      .prepare(`SELECT "verifiedAt" AS "value" FROM "Session" WHERE "userId" = ? LIMIT 1`)
      .get(userId) as { value: string | number };
    // Written in the format Prisma's SQLite adapter wrote it in.
    const then = Date.now() - 11 * 60 * 1000;
    const value = typeof sample.value === "number" ? then : new Date(then).toISOString();
    database.prepare(`UPDATE "Session" SET "verifiedAt" = ? WHERE "userId" = ?`).run(value, userId);
  } finally {
    database.close();
  }
}

/** How many messages to `email` the mail job has not sent yet (a sent one has its sealed link cleared). */
export function unsentMailTo(email: string): number {
  const database = new Database(path.join(process.env.E2E_DATA_DIR!, "e2e.db"), { readonly: true });
  try {
    const row = database
      .prepare(`SELECT COUNT(*) AS "n" FROM "MailMessage" WHERE "recipient" = ? AND "sentAt" IS NULL`)
      .get(email) as { n: number };
    return row.n;
  } finally {
    database.close();
  }
}
