// pg_dump and pg_restore get DATABASE_URL without its password, which goes in
// their environment (PGPASSWORD): a program's arguments are in the process
// list for every user of the machine to read. Prisma's own settings leave the
// URL too: libpq refuses a parameter it does not know.
import { describe, expect, it } from "vitest";
import { toolConnection } from "@/lib/admin/backups/postgres-database";

describe("toolConnection", () => {
  it("moves the password, decoded, out of the URL into the environment", () => {
    const { dbname, env } = toolConnection("postgresql://keyport:p%40ss%3Aw0rd@db.internal:5432/keyport");
    expect(dbname).toBe("postgresql://keyport@db.internal:5432/keyport");
    expect(env).toEqual({ PGPASSWORD: "p@ss:w0rd" });
  });

  it("keeps libpq's parameters and drops Prisma's", () => {
    const { dbname } = toolConnection(
      "postgres://keyport:secret@localhost/keyport?sslmode=require&schema=public&connection_limit=5&pgbouncer=true",
    );
    expect(dbname).toBe("postgres://keyport@localhost/keyport?sslmode=require");
  });

  it("moves a ?password= parameter to the environment too, and never passes an sslpassword on", () => {
    const { dbname, env } = toolConnection(
      "postgresql://keyport@db.internal/keyport?sslmode=verify-full&password=p%26ss%20w0rd&sslpassword=k3y",
    );
    expect(dbname).toBe("postgresql://keyport@db.internal/keyport?sslmode=verify-full");
    expect(env).toEqual({ PGPASSWORD: "p&ss w0rd" });
    // The parameter is the one libpq would use when both are given.
    expect(toolConnection("postgresql://keyport:old@db.internal/keyport?password=new").env).toEqual({
      PGPASSWORD: "new",
    });
  });

  it("sets no password when the URL has none (a .pgpass file, or trust)", () => {
    expect(toolConnection("postgresql://keyport@localhost/keyport")).toEqual({
      dbname: "postgresql://keyport@localhost/keyport",
      env: {},
    });
  });
});
