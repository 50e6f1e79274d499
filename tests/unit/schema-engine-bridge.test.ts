import { describe, expect, it } from "vitest";
import { pgFields, providerOf, sqlitePath } from "@/scripts/prisma-engine/adapters.mjs";
import { parseEngineArgs } from "@/scripts/prisma-engine/args.mjs";
import { rpcError } from "@/scripts/prisma-engine/rpc-error.mjs";

describe("the schema engine bridge's command line", () => {
  it("reads what the Prisma CLI passes", () => {
    const args = parseEngineArgs([
      "--datamodels",
      "a.prisma",
      "--datamodels",
      "b.prisma",
      "--datasource",
      '{"url":"file:./x.db"}',
      "--enabled-preview-features",
      "strictUndefinedChecks",
    ]);
    expect(args.datamodels).toEqual(["a.prisma", "b.prisma"]);
    expect(args.datasource).toEqual({ url: "file:./x.db" });
    expect(args.previewFeatures).toEqual(["strictUndefinedChecks"]);
    expect(args.cliCommand).toBeUndefined();
  });

  it("recognises the one-shot cli commands", () => {
    const args = parseEngineArgs(["--datasource", '{"url":"file:x.db"}', "cli", "can-connect-to-database"]);
    expect(args.cliCommand).toBe("can-connect-to-database");
  });
});

describe("the bridge's connections", () => {
  it("splits a PostgreSQL URL into separate fields, so a shadow database can replace the name", () => {
    expect(pgFields("postgresql://app:p%40ss@127.0.0.1:5433/keyport?schema=tenant")).toEqual({
      fields: { host: "127.0.0.1", port: 5433, user: "app", password: "p@ss", database: "keyport" },
      schema: "tenant",
    });
  });

  it("tells the provider from the URL, or from the schema when there is no URL", () => {
    expect(providerOf("postgres://x/y", [])).toBe("postgres");
    expect(providerOf("file:./x.db", [])).toBe("sqlite");
    expect(providerOf(undefined, [["s.prisma", 'datasource db {\n provider = "postgresql"\n}']])).toBe("postgres");
  });

  it("resolves relative SQLite paths against the base directory", () => {
    expect(sqlitePath("file:./data/x.db", "/srv/app")).toBe("/srv/app/data/x.db");
    expect(sqlitePath("file:/abs/x.db", "/srv/app")).toBe("/abs/x.db");
  });
});

describe("the bridge's errors", () => {
  it("carry the Prisma error code where the CLI looks for it", () => {
    const error = Object.assign(new Error("Database schema is not empty"), { code: "P3005" });
    const rpc = rpcError(error, { errorRegistry: { consumeError: () => undefined } });
    expect(rpc.code).toBe(4466);
    expect(rpc.data).toMatchObject({ is_panic: false, message: "Database schema is not empty", error_code: "P3005" });
  });
});
