// With the database unreachable, a well-formed key cannot be checked: the
// gate answers 503 service_unavailable in the catalog's shape, and a
// malformed key is still refused without any database access.
import { afterAll, describe, expect, it, vi } from "vitest";
import { generateApiKey } from "@/lib/keys/format";

const workingUrl = process.env.DATABASE_URL;

afterAll(() => {
  process.env.DATABASE_URL = workingUrl;
  delete (globalThis as { keyportDb?: unknown }).keyportDb;
});

describe("the gate while the database is down", () => {
  it("answers 503 for a key it cannot look up, and still 401 for a malformed one", async () => {
    process.env.DATABASE_URL = "postgresql://keyport@127.0.0.1:1/keyport";
    delete (globalThis as { keyportDb?: unknown }).keyportDb;
    vi.resetModules();
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});
    const { handlePublicRequest } = await import("@/lib/public-api/app-gate");

    const down = await handlePublicRequest(
      new Request("http://localhost/api/v1/models", { headers: { authorization: `Bearer ${generateApiKey("dev")}` } }),
    );
    expect(down.status).toBe(503);
    const body = await down.json();
    expect(body.error).toMatchObject({ code: "service_unavailable", type: "api_error" });
    expect(JSON.stringify(body)).not.toMatch(/127\.0\.0\.1|ECONNREFUSED/);

    const malformed = await handlePublicRequest(
      new Request("http://localhost/api/v1/models", { headers: { authorization: "Bearer sk_dev_nope" } }),
    );
    expect(malformed.status).toBe(401);
    expect(errors).toHaveBeenCalled();
    errors.mockRestore();
  });
});
