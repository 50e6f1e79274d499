import { describe, expect, it } from "vitest";
import { assertLocalDatabaseUrl } from "../helpers/local-database";

describe("the test database guard", () => {
  it.each([
    "file:/tmp/x.db",
    "postgresql://postgres@127.0.0.1:5432/postgres",
    "postgresql://postgres@localhost/postgres",
    "postgresql://postgres@[::1]:5432/postgres",
    "postgresql:///postgres?host=/var/run/postgresql",
  ])("allows %s", (url) => expect(() => assertLocalDatabaseUrl(url)).not.toThrow());

  it.each([
    "postgresql://admin:pw@db.example.com:5432/prod",
    "postgresql://admin@10.0.0.5/prod",
    "postgresql://admin@localhost/prod?host=db.internal",
    "not a url",
  ])("refuses %s", (url) => expect(() => assertLocalDatabaseUrl(url)).toThrow(/Refusing to run tests/));
});
