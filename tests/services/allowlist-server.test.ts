// A key's IP allowlist through the production server (node server.mjs): the
// client address is the socket's (an IPv4 client arrives as ::ffff:127.0.0.1
// on the dual-stack listener and must match as IPv4), or with TRUST_PROXY the
// X-Forwarded-For entry it names; nothing else a client sends changes it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { createKey } from "@/lib/keys/lifecycle";
import { requireBuild, startInstance, stopInstances } from "../helpers/production-server";

let actor: { userId: string; ip: null; userAgent: null };

beforeAll(async () => {
  requireBuild();
  const user = await createAccount(`allowlist-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  actor = { userId: user.userId, ip: null, userAgent: null };
}, 60_000);

afterAll(stopInstances);

/** A key that works only from these entries. */
async function keyFor(...allowedIps: string[]): Promise<string> {
  const { secret } = await createKey(actor, {
    label: `allow ${allowedIps.join(" ")}`,
    environment: "dev",
    expiresAt: null,
    restrictions: { scopes: "all", allowedIps, rateLimit: null },
  });
  return secret;
}

async function models(host: string, port: number, key: string, headers: Record<string, string> = {}) {
  const response = await fetch(`http://${host}:${port}/api/v1/models`, {
    headers: { Authorization: `Bearer ${key}`, ...headers },
  });
  const body = (await response.json()) as { error?: { code: string; message: string } };
  return { status: response.status, code: body.error?.code, message: body.error?.message };
}

const V4 = "127.0.0.1";
const V6 = "[::1]";
const FORGED = { "x-keyport-peer-ip": "198.51.100.7", "X-Forwarded-For": "198.51.100.7" };

describe("TRUST_PROXY unset: the socket's address decides", () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await startInstance({ DATABASE_URL: process.env.DATABASE_URL!, TRUST_PROXY: "0" }));
  }, 60_000);

  it("an IPv4 range: inside passes (the mapped address matches as IPv4), outside is 403 ip_not_allowed", async () => {
    const inside = await keyFor("127.0.0.0/8");
    expect((await models(V4, port, inside)).status).toBe(200);
    const outside = await keyFor("203.0.113.0/24");
    const refused = await models(V4, port, outside);
    expect(refused).toMatchObject({ status: 403, code: "ip_not_allowed" });
    expect(refused.message).toContain("127.0.0.1");
    expect(refused.message).not.toContain("203.0.113");
  });

  it("an IPv6 range: inside passes, outside is refused, and an IPv4 range does not match an IPv6 client", async () => {
    expect((await models(V6, port, await keyFor("::1/128"))).status).toBe(200);
    expect((await models(V6, port, await keyFor("2001:db8::/32"))).code).toBe("ip_not_allowed");
    expect((await models(V6, port, await keyFor("127.0.0.0/8"))).code).toBe("ip_not_allowed");
    expect((await models(V4, port, await keyFor("::1/128"))).code).toBe("ip_not_allowed");
  });

  it("a client-sent x-keyport-peer-ip or X-Forwarded-For changes nothing", async () => {
    const elsewhere = await keyFor("198.51.100.0/24");
    expect((await models(V4, port, elsewhere, FORGED)).code).toBe("ip_not_allowed");
    expect((await models(V6, port, elsewhere, FORGED)).code).toBe("ip_not_allowed");
    const here = await keyFor("127.0.0.1");
    expect(
      (await models(V4, port, here, { "x-keyport-peer-ip": "10.0.0.1", "X-Forwarded-For": "10.0.0.1" })).status,
    ).toBe(200);
  });
});

describe("TRUST_PROXY=1: the entry our proxy appended decides", () => {
  let port: number;
  beforeAll(async () => {
    ({ port } = await startInstance({ DATABASE_URL: process.env.DATABASE_URL!, TRUST_PROXY: "1" }));
  }, 60_000);

  it("inside and outside an IPv4 and an IPv6 range, by the last X-Forwarded-For entry", async () => {
    const v4 = await keyFor("198.51.100.0/24");
    expect((await models(V4, port, v4, { "X-Forwarded-For": "198.51.100.7" })).status).toBe(200);
    expect((await models(V4, port, v4, { "X-Forwarded-For": "203.0.113.7" })).code).toBe("ip_not_allowed");
    const v6 = await keyFor("2001:db8::/32");
    expect((await models(V4, port, v6, { "X-Forwarded-For": "2001:db8::7" })).status).toBe(200);
    expect((await models(V4, port, v6, { "X-Forwarded-For": "2001:db9::7" })).code).toBe("ip_not_allowed");
  });

  it("an entry left of the proxy's, a forged x-keyport-peer-ip, or garbage changes nothing", async () => {
    const key = await keyFor("198.51.100.0/24");
    // The client wrote the first entry; our one proxy appended the real address.
    expect((await models(V4, port, key, { "X-Forwarded-For": "198.51.100.7, 203.0.113.7" })).code).toBe(
      "ip_not_allowed",
    );
    expect(
      (await models(V4, port, key, { "X-Forwarded-For": "203.0.113.7", "x-keyport-peer-ip": "198.51.100.7" })).code,
    ).toBe("ip_not_allowed");
    expect((await models(V4, port, key, { "X-Forwarded-For": "not-an-address" })).code).toBe("ip_not_allowed");
  });
});
