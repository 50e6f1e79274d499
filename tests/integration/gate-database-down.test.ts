// With the database unreachable, a well-formed key cannot be checked: the
// gate answers 503 service_unavailable in the catalog's shape (with
// Retry-After, as every 503 of the public API), and a
// malformed key is still refused without any database access.
import { describe, expect, it, vi } from "vitest";
import { getEnv } from "@/lib/env";
import { generateApiKey } from "@/lib/keys/format";
import { gateServices } from "@/lib/public-api/app-gate";
import { asFetchHandler, createGate } from "@/lib/public-api/gate";
import { createRuntime } from "@/lib/runtime/create-runtime";
import { DISCARD_USAGE } from "@/lib/usage/event";

describe("the gate while the database is down", () => {
  it("answers 503 for a key it cannot look up, and still 401 for a malformed one", async () => {
    // A runtime of its own, on a database nothing answers for (port 1 refuses the connection).
    const unreachable = createRuntime({ ...getEnv(), DATABASE_URL: "postgresql://keyport@127.0.0.1:1/keyport" });
    const handlePublicRequest = asFetchHandler(createGate({ ...gateServices(unreachable), usage: DISCARD_USAGE }));
    const errors = vi.spyOn(console, "error").mockImplementation(() => {});

    const down = await handlePublicRequest(
      new Request("http://localhost/api/v1/models", { headers: { authorization: `Bearer ${generateApiKey("dev")}` } }),
    );
    expect(down.status).toBe(503);
    expect(down.headers.get("retry-after")).toBe("5");
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
