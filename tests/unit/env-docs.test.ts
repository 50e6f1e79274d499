// The environment's facts are written once, in lib/env-schema.ts. The table in
// docs/configuration.md is generated from it (`npm run docs:env`) and
// .env.example is written by hand: these fail when either drifts from the schema.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { CONFIGURATION_DOC, renderEnvTable, schemaVariables, tableIn } from "../../scripts/env-docs.mjs";

const ENV_EXAMPLE = path.resolve(import.meta.dirname, "..", "..", ".env.example");

/** The variables a table names in its first column. */
function tableVariables(table: string): string[] {
  return [...table.matchAll(/^\| `([A-Z][A-Z0-9_]*)` /gm)].map((match) => match[1]!);
}

/** The variables .env.example assigns, commented out (`# NAME=`) or not. */
function exampleVariables(text: string): string[] {
  return [...text.matchAll(/^#? ?([A-Z][A-Z0-9_]*)=/gm)].map((match) => match[1]!);
}

describe("docs/configuration.md", () => {
  const table = tableIn(readFileSync(CONFIGURATION_DOC, "utf8"));

  it("holds the generated table between its markers", () => {
    expect(table, "the env-table markers are missing").toBeDefined();
  });

  it("names every variable of the schema, in the schema's order", () => {
    expect(tableVariables(table ?? "")).toEqual(schemaVariables());
  });

  it("holds the table `npm run docs:env` writes now (run it after changing lib/env-schema.ts)", async () => {
    expect(table).toBe(await renderEnvTable());
  });
});

describe(".env.example", () => {
  const named = exampleVariables(readFileSync(ENV_EXAMPLE, "utf8"));

  it("names every variable of the schema", () => {
    expect(schemaVariables().filter((name) => !named.includes(name))).toEqual([]);
  });

  it("names no variable the schema does not know", () => {
    const known = new Set(schemaVariables());
    expect(named.filter((name) => !known.has(name))).toEqual([]);
  });

  it("names each variable once", () => {
    expect(named.filter((name, index) => named.indexOf(name) !== index)).toEqual([]);
  });
});
