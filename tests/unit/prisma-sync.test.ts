import { execFileSync, spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");
const script = path.join(root, "scripts", "prisma-sync.mjs");
let copy: string | undefined;

function projectCopy(): string {
  copy = mkdtempSync(path.join(os.tmpdir(), "keyport-sync-"));
  cpSync(path.join(root, "prisma"), path.join(copy, "prisma"), { recursive: true });
  return copy;
}

function check(dir: string) {
  return spawnSync("node", [script, "--check", "--root", dir], { encoding: "utf8" });
}

afterEach(() => {
  if (copy) rmSync(copy, { recursive: true, force: true });
  copy = undefined;
});

describe("the schema drift check", () => {
  it("passes on the committed schemas and migrations", () => {
    const result = check(root);
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
  });

  it("fails when the source schema changed and the PostgreSQL schema was not regenerated", () => {
    const dir = projectCopy();
    const source = path.join(dir, "prisma", "schema.prisma");
    writeFileSync(source, readFileSync(source, "utf8") + "\nmodel Extra {\n  id String @id\n}\n");
    const result = check(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/prisma\/postgres\/schema.prisma differs/);

    execFileSync("node", [script, "--root", dir]);
    expect(readFileSync(path.join(dir, "prisma", "postgres", "schema.prisma"), "utf8")).toMatch(/model Extra/);
  });

  it("fails when the PostgreSQL schema was edited by hand", () => {
    const dir = projectCopy();
    const target = path.join(dir, "prisma", "postgres", "schema.prisma");
    writeFileSync(target, readFileSync(target, "utf8").replace(/passwordHash(\s+)String\?/, "passwordHash$1String"));
    expect(check(dir).status).toBe(1);
  });

  it("fails when a migration exists for one provider only", () => {
    const dir = projectCopy();
    mkdirSync(path.join(dir, "prisma", "migrations", "29990101000000_only_sqlite"));
    const result = check(dir);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/migration folders differ/);
  });
});
