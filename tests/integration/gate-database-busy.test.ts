// A database that cannot take a query in time is overload, not a fault: a
// public API request whose handler waits for a connection (PostgreSQL's pool
// full) or for the write lock (SQLite) longer than DATABASE_TIMEOUT_MS is
// answered 503 service_unavailable with Retry-After, never 500, and the same
// request succeeds once the database is free again.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { createKey } from "@/lib/keys/lifecycle";
import { handlePublicRequest } from "@/lib/public-api/app-gate";
import { holdTheDatabase } from "../helpers/hold-database";

// Read when this file's runtime is made, on its first query: a pool of one connection, and a short wait.
vi.hoisted(() => {
  process.env.DATABASE_POOL_SIZE = "1";
  process.env.DATABASE_TIMEOUT_MS = "300";
});

function createGeneration(secret: string) {
  return handlePublicRequest(
    new Request("http://localhost/api/v1/apps/poster-studio/generations", {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
      body: JSON.stringify({ prompt: "a lighthouse at dusk" }),
    }),
  );
}

describe("the public API while the database is too busy to answer in time", () => {
  let secret: string;

  beforeAll(async () => {
    const user = await createAccount(`busy-${Date.now()}@example.com`, "a long enough password");
    if (!user.ok) throw new Error(user.error);
    const actor = { userId: user.userId, ip: null, userAgent: null };
    secret = (await createKey(actor, { label: "busy", environment: "dev", expiresAt: null })).secret;
    // The key is found and cached before the database is held.
    expect((await createGeneration(secret)).status).toBe(201);
  });

  afterAll(() => {
    delete process.env.DATABASE_POOL_SIZE;
    delete process.env.DATABASE_TIMEOUT_MS;
  });

  it("answers 503 service_unavailable with Retry-After, then 201 once the database is free", async () => {
    const release = await holdTheDatabase();
    let answer: Response;
    try {
      answer = await createGeneration(secret);
    } finally {
      await release();
    }
    expect(answer.status).toBe(503);
    expect(answer.headers.get("retry-after")).toBe("5");
    const body = await answer.json();
    expect(body.error).toMatchObject({ code: "service_unavailable", type: "api_error" });
    expect(JSON.stringify(body)).not.toMatch(/timeout|locked|connect/i);

    expect((await createGeneration(secret)).status).toBe(201);
  });
});
