// The request examples of every route, in curl, Node (fetch) and Python
// (requests), each with both header forms. Written from the registry and
// exampleInputs, so they cannot name a path the gate does not serve; the e2e
// suite extracts them from the built pages and runs them.
import type { PublicRoute } from "../public-api/routes";
import type { ExampleInput } from "./example-inputs";

export const KEY_ENV = "KEYPORT_API_KEY";

export const exampleLanguages = ["curl", "node", "python"] as const;
export type ExampleLanguage = (typeof exampleLanguages)[number];

export const headerForms = ["bearer", "x-api-key"] as const;
export type HeaderForm = (typeof headerForms)[number];

export const languageLabels: Record<ExampleLanguage, string> = { curl: "curl", node: "Node.js", python: "Python" };
export const headerFormLabels: Record<HeaderForm, string> = {
  bearer: "Authorization: Bearer (recommended)",
  "x-api-key": "X-API-Key",
};

export interface Example {
  language: ExampleLanguage;
  form: HeaderForm;
  code: string;
}

type Part = { text: string } | { env: string };

/** The URL as parts: literal text and environment variables (each language spells those its own way). */
function urlParts(baseUrl: string, route: PublicRoute, input: ExampleInput, withQuery: boolean): Part[] {
  const parts: Part[] = [];
  let text = baseUrl.replace(/\/$/, "");
  for (const piece of route.path.split(/(\[[a-z]+\])/)) {
    const name = /^\[([a-z]+)\]$/.exec(piece)?.[1];
    if (!name) {
      text += piece;
      continue;
    }
    const value = input.params?.[name];
    if (value === undefined) throw new Error(`The example of ${route.name} has no value for [${name}].`);
    if (typeof value === "string") text += encodeURIComponent(value);
    else {
      parts.push({ text }, { env: value.env });
      text = "";
    }
  }
  if (withQuery && input.query) text += `?${new URLSearchParams(input.query).toString()}`;
  if (text) parts.push({ text });
  return parts;
}

const json = (value: unknown, indent: string) => JSON.stringify(value, null, 2).replaceAll("\n", `\n${indent}`);

function curl(baseUrl: string, route: PublicRoute, input: ExampleInput, form: HeaderForm): string {
  const url = urlParts(baseUrl, route, input, true)
    .map((part) => ("env" in part ? `$${part.env}` : part.text))
    .join("");
  // -d and -F make curl POST; --fail-with-body exits non-zero on an error status and still prints the body.
  const lines = [`curl --fail-with-body -sS${input.stream ? " -N" : ""} "${url}"`];
  lines.push(form === "bearer" ? `-H "Authorization: Bearer $${KEY_ENV}"` : `-H "X-API-Key: $${KEY_ENV}"`);
  if (input.idempotencyKey) lines.push(`-H "Idempotency-Key: ${input.idempotencyKey}"`);
  if (input.body) lines.push(`-H "Content-Type: application/json"`, `-d '${json(input.body, "  ")}'`);
  if (input.file) {
    const { field, path, type, extra } = input.file;
    lines.push(`-F "${field}=@${path};type=${type}"`);
    for (const [name, value] of Object.entries(extra ?? {})) lines.push(`-F "${name}=${value}"`);
  }
  return lines.join(" \\\n  ");
}

function node(baseUrl: string, route: PublicRoute, input: ExampleInput, form: HeaderForm): string {
  const parts = urlParts(baseUrl, route, input, true);
  const url = parts.some((part) => "env" in part)
    ? `\`${parts.map((part) => ("env" in part ? `\${process.env.${part.env}}` : part.text)).join("")}\``
    : JSON.stringify(parts.map((part) => ("env" in part ? "" : part.text)).join(""));
  const headers = [
    form === "bearer" ? `Authorization: \`Bearer \${process.env.${KEY_ENV}}\`` : `"X-API-Key": process.env.${KEY_ENV}`,
  ];
  if (input.idempotencyKey) headers.push(`"Idempotency-Key": "${input.idempotencyKey}"`);
  if (input.body) headers.push(`"Content-Type": "application/json"`);
  const lines: string[] = [];
  if (input.file) {
    const { field, path, type, extra } = input.file;
    lines.push(`import { openAsBlob } from "node:fs";`, ``, `const form = new FormData();`);
    lines.push(`form.append("${field}", await openAsBlob("${path}", { type: "${type}" }), "${path}");`);
    for (const [name, value] of Object.entries(extra ?? {})) lines.push(`form.append("${name}", "${value}");`);
    lines.push(``);
  }
  lines.push(`const response = await fetch(${url}, {`);
  if (route.method !== "GET") lines.push(`  method: "POST",`);
  lines.push(`  headers: { ${headers.join(", ")} },`);
  if (input.body) lines.push(`  body: JSON.stringify(${jsValue(input.body, "  ")}),`);
  if (input.file) lines.push(`  body: form,`);
  lines.push(`});`);
  lines.push(`if (!response.ok) throw new Error(\`\${response.status}: \${await response.text()}\`);`);
  if (input.stream) {
    lines.push(
      `// Print each chunk as it arrives.`,
      `const decoder = new TextDecoder();`,
      `for await (const chunk of response.body) process.stdout.write(decoder.decode(chunk, { stream: true }));`,
    );
  } else {
    lines.push(`console.log(JSON.stringify(await response.json(), null, 2));`);
  }
  return lines.join("\n");
}

/** A JavaScript literal for a JSON value: keys unquoted where they can be. */
function jsValue(value: unknown, indent: string): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value))
    return `[\n${value.map((item) => `${inner}${jsValue(item, inner)},`).join("\n")}\n${indent}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(([name, item]) => {
    const key = /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
    return `${inner}${key}: ${jsValue(item, inner)},`;
  });
  return `{\n${entries.join("\n")}\n${indent}}`;
}

const pyString = (text: string) => JSON.stringify(text);

function python(baseUrl: string, route: PublicRoute, input: ExampleInput, form: HeaderForm): string {
  const parts = urlParts(baseUrl, route, input, false);
  const url = parts.some((part) => "env" in part)
    ? `f${pyString(parts.map((part) => ("env" in part ? `{os.environ['${part.env}']}` : part.text)).join(""))}`
    : pyString(parts.map((part) => ("env" in part ? "" : part.text)).join(""));
  const headers = [
    form === "bearer"
      ? `"Authorization": f"Bearer {os.environ['${KEY_ENV}']}"`
      : `"X-API-Key": os.environ["${KEY_ENV}"]`,
  ];
  if (input.idempotencyKey) headers.push(`"Idempotency-Key": "${input.idempotencyKey}"`);
  const args = [`    ${url},`, `    headers={${headers.join(", ")}},`];
  if (input.query) args.push(`    params=${pyDict(input.query)},`);
  if (input.body) args.push(`    json=${pyValue(input.body, "    ")},`);
  if (input.file) {
    const { field, path, type, extra } = input.file;
    args.push(`    files={"${field}": ("${path}", open("${path}", "rb"), "${type}")},`);
    if (extra) args.push(`    data=${pyDict(extra)},`);
  }
  if (input.stream) args.push(`    stream=True,`);
  args.push(`    timeout=30,`);
  const call = [`requests.${route.method === "GET" ? "get" : "post"}(`, ...args, `)`];
  const lines = [`import os`, ``, `import requests`, ``];
  if (input.stream) {
    lines.push(`with ${call.join("\n")} as response:`);
    lines.push(`    response.raise_for_status()`, `    # Print each line as it arrives.`);
    lines.push(`    for line in response.iter_lines(decode_unicode=True):`, `        print(line)`);
  } else {
    lines.push(`response = ${call.join("\n")}`, `response.raise_for_status()`, `print(response.text)`);
  }
  return lines.join("\n");
}

/** A Python literal for a JSON value, indented like the call it sits in. */
function pyValue(value: unknown, indent: string): string {
  if (value === null) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "string" || typeof value === "number") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    return `[\n${value.map((item) => `${inner}${pyValue(item, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value as Record<string, unknown>);
  return `{\n${entries.map(([name, item]) => `${inner}${pyString(name)}: ${pyValue(item, inner)},`).join("\n")}\n${indent}}`;
}

const pyDict = (record: Record<string, string>) =>
  `{${Object.entries(record)
    .map(([name, value]) => `${pyString(name)}: ${pyString(value)}`)
    .join(", ")}}`;

const writers = { curl, node, python } satisfies Record<ExampleLanguage, unknown>;

/** Every example of a route: three languages, each in both header forms. */
export function routeExamples(baseUrl: string, route: PublicRoute, input: ExampleInput): Example[] {
  return exampleLanguages.flatMap((language) =>
    headerForms.map((form) => ({ language, form, code: writers[language](baseUrl, route, input, form) })),
  );
}
