import path from "node:path";
import { describe, expect, it } from "vitest";
import { db, dbProvider } from "@/lib/db";
import { databaseTarget } from "@/lib/db-target";
import { prismaCli, projectRoot } from "../helpers/test-database";

const url = process.env.DATABASE_URL ?? "";
const target = databaseTarget(url, projectRoot);
const expectedProvider = process.env.TEST_DATABASE_URL ? "postgres" : "sqlite";

describe(`the database (${expectedProvider})`, () => {
  it("runs on the provider the test run asked for", () => {
    expect(dbProvider()).toBe(expectedProvider);
  });

  it("has every committed migration applied by `prisma migrate deploy`", async () => {
    const { stdout } = await prismaCli(["migrate", "status"], url);
    expect(stdout).toMatch(/Database schema is up to date!/);
  });

  it("matches its schema exactly: the migrations have not drifted from it", async () => {
    // --exit-code: 0 when there is no difference, 2 (a rejected promise here) when there is one.
    // The CLI's "No difference detected." line is not asserted: it can be lost when the
    // CLI exits while its stdout pipe is still flushing.
    const diff = prismaCli(
      [
        "migrate",
        "diff",
        "--from-migrations",
        path.relative(projectRoot, target.migrationsPath),
        "--to-schema",
        path.relative(projectRoot, target.schemaPath),
        "--exit-code",
      ],
      url,
    );
    await expect(diff).resolves.toBeDefined();
  });

  it("writes and reads through the Prisma client", async () => {
    const email = `reader-${Date.now()}@example.com`;
    const created = await db.user.create({ data: { email, name: "Ada" } });
    const found = await db.user.findUnique({ where: { email } });
    expect(found).toMatchObject({ id: created.id, email, name: "Ada" });
    await db.user.delete({ where: { id: created.id } });
    expect(await db.user.count({ where: { email } })).toBe(0);
  });

  it("refuses an undefined filter value instead of reading it as no filter", async () => {
    const missingOwner: string | undefined = undefined;
    await expect(db.user.findMany({ where: { id: missingOwner as unknown as string } })).rejects.toThrow(/undefined/i);
  });

  it("lets concurrent writers wait for each other instead of failing", async () => {
    const emails = Array.from({ length: 20 }, (_, i) => `concurrent-${Date.now()}-${i}@example.com`);
    await Promise.all(emails.map((email) => db.user.create({ data: { email } })));
    expect(await db.user.count({ where: { email: { in: emails } } })).toBe(20);
    await db.user.deleteMany({ where: { email: { in: emails } } });
  });
});

describe("the drift check itself", () => {
  it("fails (exit code 2) when the schema holds a change no migration has", async () => {
    const { mkdtempSync, readFileSync, writeFileSync, rmSync } = await import("node:fs");
    const os = await import("node:os");
    const dir = mkdtempSync(path.join(os.tmpdir(), "keyport-drift-"));
    const changed = path.join(dir, "schema.prisma");
    writeFileSync(changed, readFileSync(target.schemaPath, "utf8") + "\nmodel DriftProbe {\n  id String @id\n}\n");
    // Eight at once: on PostgreSQL each builds and drops its own shadow
    // database, and a connection the DROP ended used to crash the engine
    // bridge, which the CLI then reported as "no difference" (exit 0).
    const diffs = Array.from({ length: 8 }, () =>
      prismaCli(
        [
          "migrate",
          "diff",
          "--from-migrations",
          path.relative(projectRoot, target.migrationsPath),
          "--to-schema",
          changed,
          "--exit-code",
        ],
        url,
      ).then(
        () => 0,
        (error: { code?: number }) => error.code,
      ),
    );
    expect(await Promise.all(diffs)).toEqual(Array(8).fill(2));
    rmSync(dir, { recursive: true, force: true });
  }, 60_000);
});
