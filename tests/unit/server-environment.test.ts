// How server.mjs reads its environment. TRUST_PROXY has one parser, the schema's: server.mjs used to
// read "true" as 0 (Number("true") || 0) where the schema read it as 1.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseEnv } from "@/lib/env-schema";

const root = path.resolve(import.meta.dirname, "..", "..");
const required = { AUTH_SECRET: "dev", ENCRYPTION_KEY: Buffer.alloc(32, 7).toString("base64") };
const trustProxy = (value?: string) =>
  parseEnv(value === undefined ? required : { ...required, TRUST_PROXY: value }).TRUST_PROXY;

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = path.join(dir, name);
    if (name === "generated" || name === "node_modules") return [];
    if (statSync(full).isDirectory()) return sources(full);
    return /\.(ts|tsx|mjs)$/.test(name) ? [full] : [];
  });
}

describe("TRUST_PROXY", () => {
  it('is parsed by the schema: "true" is one proxy, "false" and unset none', () => {
    expect(trustProxy("true")).toBe(1);
    expect(trustProxy("2")).toBe(2);
    expect(trustProxy("false")).toBe(0);
    expect(trustProxy()).toBe(0);
  });

  it("is read from the environment nowhere else: server.mjs takes the parsed value from its runtime", () => {
    const files = [
      path.join(root, "server.mjs"),
      path.join(root, "proxy.ts"),
      ...["lib", "app"].flatMap((d) => sources(path.join(root, d))),
    ];
    // A control: the walk reads the files that use the setting.
    expect(files.map((file) => path.relative(root, file))).toContain("lib/env-schema.ts");
    const readers = files.filter((file) =>
      /process\.env(\.TRUST_PROXY|\[["']TRUST_PROXY["']\])/.test(readFileSync(file, "utf8")),
    );
    expect(readers.map((file) => path.relative(root, file))).toEqual([]);
    expect(readFileSync(path.join(root, "server.mjs"), "utf8")).toMatch(/runtime\.env\.TRUST_PROXY/);
  });
});

describe("server.mjs", () => {
  it("reads the .env files before it checks the environment and creates the runtime", () => {
    const source = readFileSync(path.join(root, "server.mjs"), "utf8");
    const loads = source.indexOf("loadEnvConfig(process.cwd(), dev)");
    // A control: all three are there.
    expect(loads).toBeGreaterThan(-1);
    expect(source.indexOf("checkEnvironmentOrExit()")).toBeGreaterThan(loads);
    expect(source.indexOf("createRuntime(")).toBeGreaterThan(loads);
  });
});
