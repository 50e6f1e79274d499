// The lint rules that keep the house's shape (eslint.config.mjs): process-wide
// objects are made only in the runtime, and only the runtime's slot and the
// native Date touch globalThis. Each rule is shown catching one, beside a
// control that the same file passes without it.
import path from "node:path";
import { ESLint } from "eslint";
import { beforeAll, describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "..", "..");
let eslint: ESLint;
beforeAll(async () => {
  eslint = new ESLint({ cwd: root });
  // The first lint loads the config and the TypeScript parser: seconds on a busy 2-core machine (npm test runs the
  // static checks beside the unit tests), which ran the first case past its 5-second budget once. Done here, under
  // the hook's longer budget, so each case times only its own lint.
  await eslint.lintText("export {};\n", { filePath: path.join(root, "lib/keys/warm-up.ts") });
}, 60_000);

/** The rules a snippet breaks, as if it were the file at `file`. */
async function broken(code: string, file: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(root, file) });
  return result!.messages.filter((message) => message.severity === 2).map((message) => String(message.ruleId));
}

const clean = `export function twice(value: number): number {\n  return value * 2;\n}\n`;

describe("the runtime's lint rules", () => {
  it("pass a plain module (the control)", async () => {
    expect(await broken(clean, "lib/keys/example.ts")).toEqual([]);
  });

  it("refuse globalThis outside the runtime's slot and the native Date", async () => {
    const code = `${clean}export const held = (globalThis as { keyportThing?: number }).keyportThing;\n`;
    for (const file of ["lib/keys/example.ts", "app/example/page.tsx", "scripts-example.mjs"]) {
      expect(await broken(code, file), file).toContain("no-restricted-globals");
    }
    for (const file of ["lib/runtime/runtime.ts", "lib/http/native-date.mjs", "lib/public-api/native-date.ts"]) {
      expect(await broken(code, file), file).not.toContain("no-restricted-globals");
    }
  });

  it("refuse a module-level let and an empty module-level collection, where the runtime should hold them", async () => {
    const state = [
      "let connections = 0;",
      "export let shared: string | undefined;",
      "const inProgress = new Map<string, number>();",
      "const seen = new Set<string>();",
    ];
    for (const line of state) {
      expect(await broken(`${line}\n${clean}`, "lib/keys/example.ts"), line).toContain("no-restricted-syntax");
    }
    // A constant table, a local let and a filled set are no process state.
    const fine = [
      "const LIMITS = new Set([1, 2]);",
      "export function count() {\n  let total = 0;\n  total += 1;\n  return total;\n}",
    ];
    for (const line of fine) expect(await broken(`${line}\n${clean}`, "lib/keys/example.ts"), line).toEqual([]);
    // The runtime itself is where they belong.
    const counter = `let made = 0;\nexport function make() {\n  made += 1;\n  return made;\n}\n`;
    expect(await broken(counter, "lib/runtime/runtime.ts")).toEqual([]);
    expect(await broken(counter, "lib/keys/example.ts")).toContain("no-restricted-syntax");
  });

  it("still keep a spread-then-field off the request path beside the runtime rule", async () => {
    const code = `${clean}export const f = (a: object) => ({ ...a, b: 1 });\n`;
    expect(await broken(code, "lib/public-api/gate.ts")).toContain("no-restricted-syntax");
    expect(await broken(code, "lib/keys/example.ts")).toEqual([]);
  });

  it("keep the domain from importing the public API or the web app, which may import it", async () => {
    const imports = {
      "the public API": `import { routesByScope } from "../public-api/routes";\nexport const r = routesByScope;\n`,
      "the HTTP adapter": `import { FLOW_HEADER } from "../http/upload-flow";\nexport const f = FLOW_HEADER;\n`,
      "the web app": `import { defineAction } from "../web/define-action";\nexport const d = defineAction;\n`,
      "a page": `import Page from "@/app/page";\nexport const p = Page;\n`,
    };
    for (const [what, code] of Object.entries(imports)) {
      expect(await broken(code, "lib/keys/example.ts"), what).toContain("no-restricted-imports");
      expect(await broken(code, "lib/usage/example.ts"), what).toContain("no-restricted-imports");
    }
    // Controls: the domain importing the domain, and the wings importing the domain and each other's shared parts.
    const domain = `import { SCOPES } from "../keys/scopes";\nexport const s = SCOPES;\n`;
    expect(await broken(domain, "lib/usage/example.ts")).toEqual([]);
    expect(await broken(imports["the public API"], "lib/web/example.ts")).toEqual([]);
    expect(await broken(imports["the public API"].replace("../", "../../"), "lib/web/actions/example.ts")).toEqual([]);
  });
});
