// `npm run docs:env`: writes the table of environment variables in
// docs/configuration.md from lib/env-schema.ts, so the schema that parses the
// environment is the one place a variable is described. Each row's
// description is the schema's own (`.describe()`); its default and allowed
// values are read from the schema's input side (zod's JSON Schema), so they
// cannot drift from what start-up accepts. tests/unit/env-docs.test.ts fails
// when the file's table is not what this writes now.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as prettier from "prettier";
import { z } from "zod";
import { envSchema } from "../lib/env-schema";

export const CONFIGURATION_DOC = path.resolve(import.meta.dirname, "..", "docs", "configuration.md");
export const TABLE_START = "<!-- env-table:start: written by `npm run docs:env` from lib/env-schema.ts; edit there -->";
export const TABLE_END = "<!-- env-table:end -->";

interface VariableSchema {
  description?: string;
  default?: unknown;
  type?: string;
  enum?: unknown[];
  format?: string;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
}

/** Every variable the schema knows, in the schema's order. */
export function schemaVariables(): string[] {
  return Object.keys(envSchema.shape);
}

function inputSchemas(): Record<string, VariableSchema> {
  const json = z.toJSONSchema(envSchema, { io: "input", unrepresentable: "any" });
  return (json.properties ?? {}) as Record<string, VariableSchema>;
}

const UNITS = ["bytes", "KiB", "MiB", "GiB", "TiB"];

/** 1048576 as "1 MiB": a byte count a person reads at a glance. */
function binarySize(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && value % 1024 === 0 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toLocaleString("en-US")} ${UNITS[unit]}`;
}

function numberText(name: string, value: number): string {
  return name.endsWith("_BYTES") ? binarySize(value) : value.toLocaleString("en-US");
}

function defaultCell(name: string, schema: VariableSchema): string {
  if (schema.default === undefined) return "unset";
  const text = `\`${String(schema.default)}\``;
  return typeof schema.default === "number" && name.endsWith("_BYTES")
    ? `${text} (${binarySize(schema.default)})`
    : text;
}

function allowedCell(name: string, schema: VariableSchema): string {
  if (schema.enum) return schema.enum.map((value) => `\`${String(value)}\``).join(", ");
  if (schema.type === "integer" || schema.type === "number") {
    const kind = schema.type === "integer" ? "whole number" : "number";
    if (schema.minimum === undefined || schema.maximum === undefined) return kind;
    return `${kind}, ${numberText(name, schema.minimum)} to ${numberText(name, schema.maximum)}`;
  }
  if (schema.format === "uri") return "URL";
  if (schema.maxLength !== undefined && schema.minLength !== undefined && schema.minLength > 1) {
    return `text, ${schema.minLength} to ${schema.maxLength.toLocaleString("en-US")} characters`;
  }
  if (schema.maxLength !== undefined) return `text, up to ${schema.maxLength.toLocaleString("en-US")} characters`;
  return schema.minLength ? "text, not empty" : "text";
}

function cell(text: string): string {
  return text.replaceAll("|", "\\|").replaceAll("\n", " ");
}

/** The table as `npm run docs:env` writes it (formatted as Prettier would, since `npm test` checks that). */
export async function renderEnvTable(): Promise<string> {
  const schemas = inputSchemas();
  const rows = schemaVariables().map((name) => {
    const schema = schemas[name] ?? {};
    if (!schema.description) {
      throw new Error(`${name} has no description in lib/env-schema.ts: add .describe("what it does")`);
    }
    return [`\`${name}\``, defaultCell(name, schema), allowedCell(name, schema), schema.description].map(cell);
  });
  const lines = [
    "| Variable | Default | Allowed | What it does |",
    "| --- | --- | --- | --- |",
    ...rows.map((row) => `| ${row.join(" | ")} |`),
  ];
  const options = (await prettier.resolveConfig(CONFIGURATION_DOC)) ?? {};
  return (await prettier.format(lines.join("\n"), { ...options, parser: "markdown" })).trimEnd();
}

/** The part of `doc` between the markers, or undefined when either marker is missing. */
export function tableIn(doc: string): string | undefined {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return undefined;
  return doc.slice(start + TABLE_START.length, end).trim();
}

/** `doc` with the part between the markers replaced by `table`. */
export function withTable(doc: string, table: string): string {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start)
    throw new Error(`${CONFIGURATION_DOC} lacks the markers ${TABLE_START} ... ${TABLE_END}`);
  return `${doc.slice(0, start + TABLE_START.length)}\n\n${table}\n\n${doc.slice(end)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const doc = readFileSync(CONFIGURATION_DOC, "utf8");
  const next = withTable(doc, await renderEnvTable());
  if (next === doc) console.log("docs/configuration.md: the table is up to date");
  else {
    writeFileSync(CONFIGURATION_DOC, next);
    console.log("docs/configuration.md: the table was written from lib/env-schema.ts");
  }
}
