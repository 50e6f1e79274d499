// The benchmark's ungated baseline is off unless switched on, and refused on https.
import { describe, expect, it, vi } from "vitest";
import { parseEnv } from "@/lib/env-schema";

async function gateWith(env: Record<string, string | undefined>) {
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  vi.resetModules();
  return (await import("@/lib/public-api/gate")).handlePublicRequest;
}

const ungated = () => new Request("http://localhost/api/v1/models", { headers: { "x-keyport-bench": "ungated" } });

describe("KEYPORT_BENCH_UNGATED", () => {
  it("is off by default: the header changes nothing", async () => {
    const handle = await gateWith({ KEYPORT_BENCH_UNGATED: undefined });
    expect((await handle(ungated())).status).toBe(401);
  });

  it("lets the marked request reach the same handler without the gate when switched on", async () => {
    const handle = await gateWith({ KEYPORT_BENCH_UNGATED: "1" });
    const response = await handle(ungated());
    expect(response.status).toBe(200);
    expect(((await response.json()) as { object: string }).object).toBe("list");
    expect((await handle(new Request("http://localhost/api/v1/models"))).status).toBe(401);
    delete process.env.KEYPORT_BENCH_UNGATED;
  });

  it("is refused when the deployment is https", () => {
    expect(() =>
      parseEnv({ AUTH_SECRET: "x", KEYPORT_BENCH_UNGATED: "1", PUBLIC_BASE_URL: "https://keyport.example" }),
    ).toThrow(/KEYPORT_BENCH_UNGATED is refused when PUBLIC_BASE_URL is https/);
  });
});
