// How server.mjs reads its environment. TRUST_PROXY has one parser, the schema's: server.mjs used to
// read "true" as 0 (Number("true") || 0) where the schema read it as 1.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it, vi } from "vitest";
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

describe("METRICS_PORT", () => {
  it("may not be the public port: start-up stops naming it, and another port is accepted", async () => {
    const { checkEnvironmentOrExit } = await import("@/lib/startup-check");
    const saved = { ...process.env };
    const exits: unknown[] = [];
    const errors: string[] = [];
    const exit = vi.spyOn(process, "exit").mockImplementation(((code: number) => {
      exits.push(code);
      throw new Error("exit");
    }) as never);
    const error = vi.spyOn(console, "error").mockImplementation((line: string) => void errors.push(line));
    try {
      Object.assign(process.env, required, { PORT: "3456", METRICS_PORT: "3456" });
      expect(() => checkEnvironmentOrExit()).toThrow("exit");
      expect(exits).toEqual([1]);
      expect(errors.join("\n")).toMatch(/METRICS_PORT must differ from PORT/);
      // The control: the same check passes with the metrics on a port of their own.
      process.env.METRICS_PORT = "3457";
      expect(() => checkEnvironmentOrExit()).not.toThrow();
    } finally {
      exit.mockRestore();
      error.mockRestore();
      for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
      Object.assign(process.env, saved);
    }
  });
});
