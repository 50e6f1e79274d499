// GET /healthz is liveness (issue 36): 200 while the process serves, whatever
// the database does (an outage must not fail every instance's liveness at
// once); readiness, which does ask the database, is tests/integration/readiness.test.ts
// and, under a running server on PostgreSQL, tests/services/readiness-outage.test.ts.
import { describe, expect, it } from "vitest";
import { GET } from "@/app/healthz/route";
import { getEnv } from "@/lib/env";
import { createRuntime } from "@/lib/runtime/create-runtime";

describe("GET /healthz", () => {
  it("answers 200 ok, not cached", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers 200 while the database is unreachable", async () => {
    // The process's runtime pointed at a port nothing listens on: the route does not ask it.
    const { publishRuntime, runtime } = await import("@/lib/runtime/runtime");
    const before = runtime();
    publishRuntime(createRuntime({ ...getEnv(), DATABASE_URL: "postgresql://keyport@127.0.0.1:1/keyport" }));
    try {
      // The control: the database is indeed unreachable through that runtime.
      await expect(runtime().db.$queryRawUnsafe("SELECT 1")).rejects.toThrow();
      const response = await GET();
      expect(response.status).toBe(200);
      expect(await response.json()).toEqual({ status: "ok" });
    } finally {
      publishRuntime(before);
    }
  });
});
