// `npm run docs:gate`: writes the gate's order in docs/public-api.md from
// lib/public-api/gate-order.ts, the one statement of it (the docs' errors
// page renders the same list). tests/unit/gate-order-docs.test.ts fails when
// the file's table is not what this writes now.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import * as prettier from "prettier";
import { ALLOWLIST_BEFORE_SCOPE, GATE_ORDER } from "../lib/public-api/gate-order";

export const PUBLIC_API_DOC = path.resolve(import.meta.dirname, "..", "docs", "public-api.md");
export const ORDER_START =
  "<!-- gate-order:start: written by `npm run docs:gate` from lib/public-api/gate-order.ts; edit there -->";
export const ORDER_END = "<!-- gate-order:end -->";

const cell = (text: string) => text.replaceAll("|", "\\|");

/** The table and the sentence after it, formatted as Prettier formats the file. */
export async function orderMarkdown(): Promise<string> {
  const rows = GATE_ORDER.map((step, index) => `| ${index + 1} | ${cell(step.check)} | ${cell(step.answer)} |`);
  const table = ["| step | check | answer |", "| --- | --- | --- |", ...rows].join("\n");
  const markdown = `${table}\n\n${ALLOWLIST_BEFORE_SCOPE}\n`;
  const options = (await prettier.resolveConfig(PUBLIC_API_DOC)) ?? {};
  return prettier.format(markdown, { ...options, parser: "markdown" });
}

/** The document with the part between the markers written again. */
export async function withOrder(document: string): Promise<string> {
  const start = document.indexOf(ORDER_START);
  const end = document.indexOf(ORDER_END);
  if (start === -1 || end < start)
    throw new Error(`docs/public-api.md has no ${ORDER_START} ... ${ORDER_END} markers.`);
  return `${document.slice(0, start + ORDER_START.length)}\n\n${await orderMarkdown()}\n${document.slice(end)}`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  writeFileSync(PUBLIC_API_DOC, await withOrder(readFileSync(PUBLIC_API_DOC, "utf8")));
  console.log(
    `Wrote the gate's order (${GATE_ORDER.length} steps) to ${path.relative(process.cwd(), PUBLIC_API_DOC)}.`,
  );
}
