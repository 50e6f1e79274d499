// The CSV route on its own, with proxy.ts out of the picture: it refuses an
// API key and a missing session itself, says what is wrong with a bad range,
// hides another user's key, and streams the owner's log as an attachment.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { personalTeam } from "../helpers/teams";

const cookies = vi.hoisted(() => new Map<string, string>());

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (cookies.has(name) ? { name, value: cookies.get(name) } : undefined),
  }),
}));

const { GET } = await import("@/app/(dashboard)/dashboard/[team]/keys/[keyId]/usage.csv/route");
const { createAccount } = await import("@/lib/auth/accounts");
const { createSession } = await import("@/lib/auth/session-store");
const { db } = await import("@/lib/db");
const { createKey } = await import("@/lib/keys/lifecycle");
const { writeUsage } = await import("../helpers/usage-writer");

let mySlug: string;
let theirSlug: string;
let token = "";
let mine = "";
let theirs = "";

async function userWithKey(label: string) {
  const user = await createAccount(`${label}-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  const issued = await createKey(
    { userId: user.userId, ip: null, userAgent: null },
    { label, environment: "dev", expiresAt: null, restrictions: { scopes: "all", allowedIps: null, rateLimit: null } },
  );
  const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: issued.key.id }, select: { id: true } });
  return { userId: user.userId, publicId: issued.key.id, rowId: row.id };
}

beforeAll(async () => {
  const owner = await userWithKey("csv-owner");
  const other = await userWithKey("csv-other");
  token = (await createSession(owner.userId, "192.0.2.1", null)).sessionToken;
  mine = owner.publicId;
  theirs = other.publicId;
  mySlug = (await personalTeam(owner.userId)).slug;
  theirSlug = (await personalTeam(other.userId)).slug;
  await writeUsage([
    {
      requestId: `req_csvroute_${owner.rowId}`,
      keyId: owner.rowId,
      userId: owner.userId,
      route: "list_models",
      status: 200,
      errorCode: null,
      latencyMs: 4,
      // As the dual-stack socket sees an IPv4 client: the CSV writes it as the page shows it.
      ip: "::ffff:203.0.113.9",
      userAgent: "=cmd|' /C calc'!A0",
      createdAt: new Date(),
    },
  ]);
});

function get(keyId: string, query = "", headers: Record<string, string> = {}, team = mySlug) {
  return GET(new Request(`http://localhost/dashboard/${team}/keys/${keyId}/usage.csv${query}`, { headers }), {
    params: Promise.resolve({ team, keyId }),
  });
}

describe("GET /dashboard/[team]/keys/[keyId]/usage.csv", () => {
  it("refuses an API key even beside a valid session, and a request without a session", async () => {
    cookies.set("keyport.session", token);
    const keyed = await get(mine, "", { authorization: "Bearer sk_dev_anything" });
    expect(keyed.status).toBe(403);
    expect(await keyed.json()).toMatchObject({ error: { code: "api_key_not_allowed" } });
    cookies.clear();
    const anonymous = await get(mine);
    expect(anonymous.status).toBe(401);
    expect(await anonymous.json()).toMatchObject({ error: { code: "session_required" } });
  });

  it("answers 400 naming the field for a bad range or status", async () => {
    cookies.set("keyport.session", token);
    const range = await get(mine, "?range=1y");
    expect(range.status).toBe(400);
    expect(await range.json()).toMatchObject({
      error: { code: "invalid_request", param: "range", message: "The range must be one of 24h, 7d, 30d." },
    });
    const status = await get(mine, "?range=7d&status=3xx");
    expect(await status.json()).toMatchObject({ error: { code: "invalid_request", param: "status" } });
  });

  it("gives 404 for another user's key and for a malformed id", async () => {
    cookies.set("keyport.session", token);
    expect((await get(theirs)).status).toBe(404);
    // Under the other team's own address too: a person outside a team gets 404, never 403.
    const outside = await get(theirs, "", {}, theirSlug);
    expect(outside.status).toBe(404);
    expect(await outside.json()).toMatchObject({ error: { code: "not_found" } });
    // The control: the same request for a key of the person's own team answers.
    expect((await get(mine)).status).toBe(200);
    expect((await get("not-a-key")).status).toBe(404);
  });

  it("streams the owner's log as a CSV attachment, never cached", async () => {
    cookies.set("keyport.session", token);
    const response = await get(mine, "?range=24h");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(`attachment; filename="${mine}-usage-24h.csv"`);
    expect(response.headers.get("cache-control")).toBe("no-store");
    const text = await response.text();
    expect(text.split("\r\n")[0]).toBe(
      '"time","request_id","route","status","error_code","latency_ms","ip","user_agent"',
    );
    expect(text).toContain(`,"list_models",200,,4,"203.0.113.9","'=cmd|' /C calc'!A0"\r\n`);
  });
});
