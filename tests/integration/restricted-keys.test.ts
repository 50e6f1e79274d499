// Restricted keys at the gate: scopes per route, the IP allowlist, the key's
// own rate limit, and the order the checks answer in (allowlist before scope,
// scope before rate limit and body). Keys are made through the real lifecycle.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { PEER_IP_HEADER } from "@/lib/auth/client-ip";
import { db } from "@/lib/db";
import { createKey, reportLeak, revokeKey, rotateKey, updateRestrictions } from "@/lib/keys/lifecycle";
import type { KeyRestrictions } from "@/lib/keys/restrictions";
import { DomainError } from "@/lib/domain-error";
import { keyRateLimit } from "@/lib/public-api/count-request";
import { routeErrors, type PublicRoute } from "@/lib/public-api/routes";
import { READ_ONLY_SCOPES, SCOPE_NAMES, type Scope } from "@/lib/keys/scopes";
import { callApi, makeKeyFixtures, publicRoutes } from "../helpers/api-fixtures";
import { startApiServer } from "../helpers/api-server";

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "100000";
  process.env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE = "10000000";
});

let actor: { userId: string; ip: null; userAgent: null };

beforeAll(async () => {
  await makeKeyFixtures(); // the generation the GET routes read belongs to another account: 404 is fine there
  const user = await createAccount(`restricted-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  actor = { userId: user.userId, ip: null, userAgent: null };
});

async function keyWith(restrictions: Partial<KeyRestrictions>, label = "restricted") {
  return createKey(actor, {
    label,
    environment: "dev",
    expiresAt: null,
    restrictions: { scopes: "all", allowedIps: null, rateLimit: null, ...restrictions },
  });
}

const from = (key: string, ip = "203.0.113.9") => ({ Authorization: `Bearer ${key}`, [PEER_IP_HEADER]: ip });

/** What the handler answers when the gate lets the request through: anything but the gate's refusals. */
function expectPassed(route: PublicRoute, result: Awaited<ReturnType<typeof callApi>>) {
  expect([200, 201, 404], `${route.name}: ${result.text}`).toContain(result.status);
  if (result.status === 404) expect(route.path).toMatch(/\[id\]$/); // another account's generation
}

function expectInsufficientScope(route: PublicRoute, result: Awaited<ReturnType<typeof callApi>>) {
  expect(result.status, route.name).toBe(403);
  expect(result.json.error).toMatchObject({
    type: "permission_error",
    code: "insufficient_scope",
    message: expect.stringContaining(route.scope),
    doc_url: expect.stringMatching(/\/docs\/errors#insufficient_scope$/),
  });
  expect(result.headers.get("www-authenticate")).toBe(
    `Bearer realm="keyport", error="insufficient_scope", scope="${route.scope}"`,
  );
  expect(routeErrors(route)).toContain("insufficient_scope");
}

describe.each(publicRoutes.map((route) => [route.name, route] as const))("%s (%s)", (_name, route) => {
  it(`a key with only ${route.scope} passes; a key with every other scope gets 403 insufficient_scope`, async () => {
    const only = await keyWith({ scopes: [route.scope] });
    expectPassed(route, await callApi(route, { headers: from(only.secret) }));
    const others = await keyWith({ scopes: SCOPE_NAMES.filter((scope) => scope !== route.scope) });
    expectInsufficientScope(route, await callApi(route, { headers: from(others.secret) }));
  });

  it("a Read only key reaches only the routes that read", async () => {
    const readOnly = await keyWith({ scopes: [...READ_ONLY_SCOPES] });
    const result = await callApi(route, { headers: from(readOnly.secret) });
    if (READ_ONLY_SCOPES.includes(route.scope)) expectPassed(route, result);
    else expectInsufficientScope(route, result);
  });
});

describe("the order of the checks", () => {
  const chat = publicRoutes.find((route) => route.name === "create_chat_completion")!;
  const models = publicRoutes.find((route) => route.name === "list_models")!;

  it("outside the allowlist and without the scope: ip_not_allowed, saying nothing of the scope", async () => {
    const { secret } = await keyWith({ scopes: ["catalog:read"], allowedIps: ["198.51.100.0/24"] });
    const result = await callApi(chat, { headers: from(secret, "203.0.113.9") });
    expect(result.status).toBe(403);
    expect(result.json.error.code).toBe("ip_not_allowed");
    expect(result.json.error.message).toContain("203.0.113.9");
    expect(result.text).not.toContain("198.51.100");
    expect(result.text).not.toContain("catalog:read");
    expect(result.headers.get("www-authenticate")).toBeNull();
    expect(result.headers.get("ratelimit-limit")).toBeNull();
  });

  it("revoked beats the allowlist: a revoked key from anywhere is 401 revoked_api_key", async () => {
    const issued = await keyWith({ allowedIps: ["198.51.100.0/24"] });
    await revokeKey(actor, issued.key.id, null);
    const result = await callApi(models, { headers: from(issued.secret, "203.0.113.9") });
    expect(result.status).toBe(401);
    expect(result.json.error.code).toBe("revoked_api_key");
  });

  it("the scope comes before the rate limit and the body: refusals do not use the key's allowance", async () => {
    const { secret } = await keyWith({ scopes: ["catalog:read"], rateLimit: 1 });
    for (let i = 0; i < 3; i++) {
      const result = await callApi(chat, { headers: from(secret), body: "{not json" });
      expect(result.json.error.code).toBe("insufficient_scope");
    }
    expect((await callApi(models, { headers: from(secret) })).status).toBe(200);
  });

  it("inside the allowlist with the scope, a bad body is still 400: the allowlist and scope checks pass it on", async () => {
    const { secret } = await keyWith({ scopes: ["models:invoke"], allowedIps: ["203.0.113.0/24"] });
    const result = await callApi(chat, { headers: from(secret, "203.0.113.200"), body: "{not json" });
    expect(result.status).toBe(400);
    expect(result.json.error.code).toBe("invalid_request");
  });

  it("an IPv4-mapped client address matches an IPv4 allowlist", async () => {
    const { secret } = await keyWith({ allowedIps: ["203.0.113.0/24"] });
    expect((await callApi(models, { headers: from(secret, "::ffff:203.0.113.9") })).status).toBe(200);
    const refused = (await callApi(models, { headers: from(secret, "::ffff:203.0.114.9") })).json.error;
    expect(refused.code).toBe("ip_not_allowed");
    // Said as a person reads the address: IPv4, not the dual-stack socket's mapped form.
    expect(refused.message).toBe(
      "This API key cannot be used from 203.0.114.9: the address is not in the key's IP allowlist.",
    );
  });
});

describe("the HTTP test server (tests/helpers/api-server.ts), like server.mjs", () => {
  it("takes the client address from the socket, never from a client-sent header", async () => {
    const server = await startApiServer();
    try {
      const elsewhere = await keyWith({ allowedIps: ["198.51.100.0/24"] });
      const forged = await fetch(`${server.baseUrl}/api/v1/models`, {
        headers: { ...from(elsewhere.secret, "198.51.100.7"), "X-Forwarded-For": "198.51.100.7" },
      });
      expect(forged.status).toBe(403);
      expect(((await forged.json()) as { error: { message: string } }).error.message).toContain("127.0.0.1");
      const here = await keyWith({ allowedIps: ["127.0.0.1"] });
      expect(
        (await fetch(`${server.baseUrl}/api/v1/models`, { headers: from(here.secret, "198.51.100.7") })).status,
      ).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("keeps the socket's address after the gate has read a body, as the usage log records it", async () => {
    const server = await startApiServer();
    try {
      const { key, secret } = await keyWith({ allowedIps: ["127.0.0.1"] }, "body read");
      const forged = { ...from(secret, "198.51.100.7"), "content-type": "application/json" };
      const chat = await fetch(`${server.baseUrl}/api/v1/chat/completions`, {
        method: "POST",
        headers: forged,
        body: JSON.stringify({ model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hi" }] }),
      });
      expect(chat.status).toBe(200);
      await chat.text();
      const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id }, select: { id: true } });
      // The process's usage buffer flushes every second.
      await expect
        .poll(async () => (await db.usageEvent.findMany({ where: { keyId: row.id }, select: { ip: true } })).length, {
          timeout: 10_000,
        })
        .toBe(1);
      expect(await db.usageEvent.findMany({ where: { keyId: row.id }, select: { ip: true } })).toEqual([
        { ip: "127.0.0.1" },
      ]);
    } finally {
      await server.close();
    }
  });
});

describe("the key's own rate limit", () => {
  it("applies instead of the environment's, and the headers say so", async () => {
    const models = publicRoutes.find((route) => route.name === "list_models")!;
    const { secret } = await keyWith({ rateLimit: 2 });
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push(await callApi(models, { headers: from(secret) }));
    expect(statuses.map((result) => result.status)).toEqual([200, 200, 429]);
    expect(statuses[0]!.headers.get("ratelimit-limit")).toBe("2");
    expect(statuses[2]!.json.error.code).toBe("rate_limited");
  });

  it("a user cannot set one above the environment's default; the operator can", async () => {
    await expect(keyWith({ rateLimit: 100_001 })).rejects.toThrow(/at most 100000 requests per minute/);
    const operator = await createKey(
      actor,
      {
        label: "operator",
        environment: "dev",
        expiresAt: null,
        restrictions: { scopes: "all", allowedIps: null, rateLimit: 200_000 },
      },
      new Date(),
      { allowAboveDefaultLimit: true },
    );
    expect(operator.key.restrictions.rateLimit).toBe(200_000);
  });
});

describe("an operator's limit and a user's", () => {
  const own = (rateLimit: number, rateLimitByOperator: boolean) => ({
    restrictions: { scopes: "all" as const, allowedIps: null, rateLimit },
    rateLimitByOperator,
  });

  it("a user's limit never passes the environment's default, even after the default is lowered", () => {
    expect(keyRateLimit(own(1000, false), 5)).toBe(5);
    expect(keyRateLimit(own(3, false), 5)).toBe(3);
    expect(keyRateLimit(own(1000, true), 5)).toBe(1000);
    expect(
      keyRateLimit({ ...own(1, false), restrictions: { ...own(1, false).restrictions, rateLimit: null } }, 5),
    ).toBe(5);
  });

  it("an operator's limit survives the user's edits of the rest and rotation, but not a new limit from the user", async () => {
    const operator = await createKey(
      actor,
      {
        label: "operator limit",
        environment: "dev",
        expiresAt: null,
        restrictions: { scopes: "all", allowedIps: null, rateLimit: 200_000 },
      },
      new Date(),
      { allowAboveDefaultLimit: true },
    );
    expect(operator.key.rateLimitByOperator).toBe(true);
    const edited = await updateRestrictions(actor, operator.key.id, {
      scopes: ["catalog:read"],
      allowedIps: null,
      rateLimit: 200_000,
    });
    expect(edited).toMatchObject({ rateLimitByOperator: true, restrictions: { rateLimit: 200_000 } });
    const rotated = await rotateKey(actor, operator.key.id, "1h");
    expect(rotated.key).toMatchObject({ rateLimitByOperator: true, restrictions: { rateLimit: 200_000 } });
    await expect(
      updateRestrictions(actor, rotated.key.id, { scopes: "all", allowedIps: null, rateLimit: 150_000 }),
    ).rejects.toThrow(/at most 100000 requests per minute/);
    const lowered = await updateRestrictions(actor, rotated.key.id, { scopes: "all", allowedIps: null, rateLimit: 50 });
    expect(lowered.rateLimitByOperator).toBe(false);
  });

  it("an operator editing the rest of a key does not make the user's own limit the operator's", async () => {
    const users = await keyWith({ rateLimit: 60 }, "user limit");
    const operatorEdit = await updateRestrictions(
      actor,
      users.key.id,
      { scopes: "all", allowedIps: ["127.0.0.1/32"], rateLimit: 60 },
      { allowAboveDefaultLimit: true },
    );
    expect(operatorEdit).toMatchObject({ rateLimitByOperator: false, restrictions: { rateLimit: 60 } });
    const operatorLimit = await updateRestrictions(
      actor,
      users.key.id,
      { scopes: "all", allowedIps: ["127.0.0.1/32"], rateLimit: 70 },
      { allowAboveDefaultLimit: true },
    );
    expect(operatorLimit.rateLimitByOperator).toBe(true);
    await expect(
      updateRestrictions(
        actor,
        users.key.id,
        { scopes: "all", allowedIps: null, rateLimit: 2_000_000 },
        { allowAboveDefaultLimit: true },
      ),
    ).rejects.toThrow(/at most 1000000/);
  });
});

describe("an idempotent retry answers what the first call did", () => {
  it("so a key without generations:read cannot poll a generation's output by retrying its create", async () => {
    const create = publicRoutes.find((route) => route.name === "create_generation")!;
    const writeOnly = await keyWith({ scopes: ["generations:write"] }, "write only");
    const headers = { ...from(writeOnly.secret), "Idempotency-Key": `retry-${Date.now()}` };
    const first = await callApi(create, { headers });
    expect(first.status).toBe(201);
    expect(first.json).toMatchObject({ status: "queued", output: null });
    // The worker finishes it.
    await db.generation.update({
      where: { id: first.json.id },
      data: {
        status: "succeeded",
        output: JSON.stringify({ type: "image", url: "data:image/svg+xml,done" }),
        completedAt: new Date(),
      },
    });
    const retry = await callApi(create, { headers });
    expect(retry.status).toBe(201);
    expect(retry.headers.get("idempotent-replayed")).toBe("true");
    expect(retry.json).toEqual(first.json);
    const read = publicRoutes.find((route) => route.name === "get_generation")!;
    const polled = await callApi(read, {
      headers: from(writeOnly.secret),
      path: `/api/v1/generations/${first.json.id}`,
    });
    expect(polled.json.error.code).toBe("insufficient_scope");
  });
});

describe("restrictions travel with the key", () => {
  const restricted: KeyRestrictions = {
    scopes: ["catalog:read", "generations:read"],
    allowedIps: ["203.0.113.0/24", "2001:db8::/32"],
    rateLimit: 7,
  };

  it("rotation copies scopes, allowlist and limit to the replacement", async () => {
    const issued = await keyWith(restricted, "rotate me");
    const rotated = await rotateKey(actor, issued.key.id, "1h");
    expect(rotated.key.restrictions).toEqual(restricted);
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: rotated.key.id } });
    expect(row).toMatchObject({
      scopes: "catalog:read generations:read",
      allowedIps: "203.0.113.0/24 2001:db8::/32",
      rateLimit: 7,
    });
  });

  it("a leak report copies them to the replacement", async () => {
    const issued = await keyWith(restricted, "leak me");
    const outcome = await reportLeak(actor, issued.key.id);
    expect(outcome.replacement?.key.restrictions).toEqual(restricted);
  });
});

describe("editing restrictions", () => {
  it("holds from the next request, and the activity row keeps before and after", async () => {
    const chat = publicRoutes.find((route) => route.name === "create_chat_completion")!;
    const issued = await keyWith({}, "edit me");
    expect((await callApi(chat, { headers: from(issued.secret) })).status).toBe(200);

    await updateRestrictions(actor, issued.key.id, {
      scopes: ["catalog:read"],
      allowedIps: ["203.0.113.0/24"],
      rateLimit: 5,
    });
    expect((await callApi(chat, { headers: from(issued.secret) })).json.error.code).toBe("insufficient_scope");

    const audit = await db.teamAuditEvent.findFirstOrThrow({
      where: { keyId: issued.key.id, action: "key.restricted" },
    });
    expect(JSON.parse(audit.details!)).toEqual({
      before: { scopes: "all", allowed_ips: "any", rate_limit_per_minute: "default" },
      after: { scopes: ["catalog:read"], allowed_ips: ["203.0.113.0/24"], rate_limit_per_minute: 5 },
    });
  });

  it("refuses a change that changes nothing, a revoked key, and another account's key", async () => {
    const issued = await keyWith({ scopes: ["catalog:read"] as Scope[] }, "unchanged");
    await expect(updateRestrictions(actor, issued.key.id, issued.key.restrictions)).rejects.toThrow(/Nothing changed/);
    await revokeKey(actor, issued.key.id, null);
    await expect(
      updateRestrictions(actor, issued.key.id, { scopes: "all", allowedIps: null, rateLimit: null }),
    ).rejects.toThrow(/revoked/);

    const stranger = await createAccount(`stranger-${Date.now()}@example.com`, "a long enough password");
    if (!stranger.ok) throw new Error(stranger.error);
    const theirs = await keyWith({}, "not yours");
    const attempt = updateRestrictions({ userId: stranger.userId, ip: null, userAgent: null }, theirs.key.id, {
      scopes: ["catalog:read"],
      allowedIps: null,
      rateLimit: null,
    });
    await expect(attempt).rejects.toBeInstanceOf(DomainError);
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: theirs.key.id } })).scopes).toBe("all");
  });
});
