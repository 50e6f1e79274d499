// A transaction that read before another connection committed, then writes.
// On SQLite (WAL) its first write fails with SQLITE_BUSY_SNAPSHOT, which no
// busy timeout waits out; the runtime's client, which the operator CLI and the
// server use, runs it again from the start (lib/sqlite-snapshot-retry.ts). On
// PostgreSQL (read committed) it simply goes on. The other connection is a
// second client of the same database, as another process would hold.
import { expect, it } from "vitest";
import { createDatabase } from "@/lib/database-client";
import { db, dbProvider } from "@/lib/db";
import { bareAccount } from "../helpers/bare-account";

it("runs a transaction again, not fails it, when another connection committed between its read and its write", async () => {
  const other = createDatabase(process.env.DATABASE_URL!, { poolSize: 2, timeoutMs: 10_000 }).client;
  const user = await bareAccount(`stale-${Date.now()}@example.com`);
  let attempts = 0;
  try {
    const seen = await db.$transaction(async (tx) => {
      attempts += 1;
      const before = await tx.user.findUniqueOrThrow({ where: { id: user.id }, select: { name: true } });
      if (attempts === 1) await other.user.update({ where: { id: user.id }, data: { name: "renamed elsewhere" } });
      await tx.user.update({ where: { id: user.id }, data: { image: `saw ${before.name}` } });
      return before.name;
    });
    const after = await db.user.findUniqueOrThrow({ where: { id: user.id }, select: { name: true, image: true } });
    if (dbProvider() === "sqlite") {
      // Run again on the new snapshot: it saw the other commit, and both writes stand.
      expect({ attempts, seen, after }).toEqual({
        attempts: 2,
        seen: "renamed elsewhere",
        after: { name: "renamed elsewhere", image: "saw renamed elsewhere" },
      });
    } else {
      expect({ attempts, seen, after }).toEqual({
        attempts: 1,
        seen: null,
        after: { name: "renamed elsewhere", image: "saw null" },
      });
    }
  } finally {
    await other.$disconnect();
  }
});
