import { describe, expect, it, vi } from "vitest";
import { GET } from "@/app/healthz/route";
import { getEnv } from "@/lib/env";
import { databaseHealth } from "@/lib/health";
import { createRuntime } from "@/lib/runtime/create-runtime";

describe("GET /healthz", () => {
  it("answers 200 ok while the database answers", async () => {
    const response = await GET();
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("answers 503 with a JSON body, not a crash, while the database is unreachable", async () => {
    // Nothing listens on port 1 of this machine: the connection is refused.
    const down = createRuntime({ ...getEnv(), DATABASE_URL: "postgresql://keyport@127.0.0.1:1/keyport" });
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const response = await databaseHealth(down.db);
    expect(response.status).toBe(503);
    expect(response.headers.get("content-type")).toMatch(/application\/json/);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const body = await response.json();
    expect(body).toEqual({
      status: "unavailable",
      error: { code: "service_unavailable", message: "The database is not reachable." },
    });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED|keyport@/);
    // Through the app's structured log, like every other line.
    const lines = errors.mock.calls.map((call) => String(call[0]));
    const line = lines.map((text) => JSON.parse(text)).find((entry) => entry.event === "healthz.database_unreachable");
    expect(line).toMatchObject({ level: "error", event: "healthz.database_unreachable" });
    expect(line.time).toMatch(/^\d{4}-/);
    errors.mockRestore();
  });
});
