// Property-based: whatever a key's scopes, route, header form and body, no
// request reaches a route's handler unless the key holds that route's scope.
// Every handler is watched; keys for all 32 sets of scopes, and All, are made
// once through the real lifecycle.
import fc from "fast-check";
import { afterAll, beforeAll, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { PEER_IP_HEADER } from "@/lib/auth/client-ip";
import { createKey } from "@/lib/keys/lifecycle";
import { routeHandlers } from "@/lib/public-api/route-handlers";
import { allows, SCOPE_NAMES, type KeyScopes } from "@/lib/keys/scopes";
import { callApi, publicRoutes } from "../helpers/api-fixtures";
import { propertyRuns } from "../helpers/property-runs";

// 400 cases in CI; a tenth on a developer's machine (tests/helpers/property-runs.ts).
const RUNS = propertyRuns(400);

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "1000000";
  process.env.RATE_LIMIT_ACCOUNT_DEV_PER_MINUTE = "10000000";
});

const keys: { scopes: KeyScopes; secret: string }[] = [];
const spies = Object.values(routeHandlers).map((handler) => vi.spyOn(handler, "run"));

beforeAll(async () => {
  const user = await createAccount(`scope-property-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  const actor = { userId: user.userId, ip: null, userAgent: null };
  const sets: KeyScopes[] = ["all"];
  for (let mask = 0; mask < 1 << SCOPE_NAMES.length; mask++) sets.push(SCOPE_NAMES.filter((_, i) => mask & (1 << i)));
  for (const scopes of sets) {
    const { secret } = await createKey(actor, {
      label: `scopes ${mask(scopes)}`,
      environment: "dev",
      expiresAt: null,
      restrictions: { scopes, allowedIps: null, rateLimit: null },
    });
    keys.push({ scopes, secret });
  }
}, 120_000);

afterAll(() => vi.restoreAllMocks());

function mask(scopes: KeyScopes): string {
  return scopes === "all" ? "all" : scopes.join(",") || "none";
}

it("no key ever reaches a handler outside its scopes", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.nat({ max: 32 }),
      fc.constantFrom(...publicRoutes),
      fc.constantFrom("bearer", "x-api-key", "both"),
      fc.option(fc.constantFrom("{not json", "{}", '{"model":1}'), { nil: undefined }),
      async (index, route, form, body) => {
        const { scopes, secret } = keys[index]!;
        const headers: Record<string, string> = { [PEER_IP_HEADER]: "203.0.113.9" };
        if (form !== "x-api-key") headers.Authorization = `Bearer ${secret}`;
        if (form !== "bearer") headers["X-API-Key"] = secret;
        const handler = routeHandlers[route.name as keyof typeof routeHandlers];
        const before = vi.mocked(handler.run).mock.calls.length;
        const result = await callApi(route, { headers, ...(body && "request" in route ? { body } : {}) });
        const reached = vi.mocked(handler.run).mock.calls.length > before;
        if (allows(scopes, route.scope)) {
          expect(result.json?.error?.code, `${mask(scopes)} on ${route.name}`).not.toBe("insufficient_scope");
        } else {
          expect(reached, `${mask(scopes)} reached ${route.name}`).toBe(false);
          expect(result.status).toBe(403);
          expect(result.json.error.code).toBe("insufficient_scope");
        }
      },
    ),
    { numRuns: RUNS },
  );
  // The property watched real calls: handlers were reached for the keys that may.
  expect(spies.some((spy) => spy.mock.calls.length > 0)).toBe(true);
});
