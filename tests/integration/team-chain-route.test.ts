// The team chain's download on its own, with proxy.ts out of the picture, for
// every role of the roles table and for someone outside the team: the roles
// with activity.origin get the chain, the others the role's refusal, an
// outsider the same 404 as a team that does not exist; an API key beside a
// session, and no session, are refused.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { bareAccount } from "../helpers/bare-account";

const cookies = vi.hoisted(() => new Map<string, string>());

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (cookies.has(name) ? { name, value: cookies.get(name) } : undefined),
  }),
}));

const { GET } = await import("@/app/(dashboard)/dashboard/[team]/activity/chain.json/route");
const { createSession } = await import("@/lib/auth/session-store");
const { addMember, createTeam } = await import("@/lib/teams/members");
const { can, ROLES } = await import("@/lib/teams/roles");

const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const sessions = new Map<string, string>();
let slug = "";

beforeAll(async () => {
  const people = new Map<string, { id: string }>();
  for (const who of [...ROLES, "outsider"]) people.set(who, await bareAccount(`chain-${who}-${tag}@example.com`));
  const operator = (userId: string) => ({ userId, ip: null, userAgent: null, kind: "operator" as const });
  const team = await createTeam(operator(people.get("owner")!.id), { name: `Chain ${tag}` });
  slug = team.slug;
  for (const role of ROLES.filter((role) => role !== "owner")) {
    await addMember(operator(people.get(role)!.id), team.id, people.get(role)!.id, role);
  }
  for (const [who, person] of people)
    sessions.set(who, (await createSession(person.id, "192.0.2.1", null)).sessionToken);
});

function get(who: string, headers: Record<string, string> = {}, team = slug) {
  cookies.clear();
  if (sessions.has(who)) cookies.set("keyport.session", sessions.get(who)!);
  return GET(new Request(`http://localhost/dashboard/${team}/activity/chain.json`, { headers }), {
    params: Promise.resolve({ team }),
  });
}

describe("GET /dashboard/[team]/activity/chain.json", () => {
  it.each(ROLES)("answers a %s as the roles table says", async (role) => {
    const response = await get(role);
    if (can(role, "activity.origin")) {
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toMatch(
        new RegExp(`^attachment; filename="keyport-${slug}-activity-\\d{4}-\\d{2}-\\d{2}\\.json"$`),
      );
      const chain = (await response.json()) as { format: string; slug: string; rows: { action: string }[] };
      expect(chain).toMatchObject({ format: "keyport.team-activity-chain.v1", slug });
      expect(chain.rows.map((row) => row.action)).toEqual(["team.created", ...Array(3).fill("team.member_added")]);
    } else {
      expect(response.status).toBe(400);
      expect(((await response.json()) as { error: { message: string } }).error.message).toContain(
        `Your role in this team (${role}) does not allow this`,
      );
    }
  });

  it("answers someone outside the team exactly as a team that does not exist", async () => {
    const outside = await get("outsider");
    const missing = await get("outsider", {}, "no-such-team-here");
    expect(outside.status).toBe(404);
    expect(missing.status).toBe(404);
    // Alike but for the request's own id.
    const body = async (response: Response) => {
      const { error } = (await response.json()) as { error: Record<string, unknown> };
      return { ...error, request_id: undefined };
    };
    const seen = await body(outside);
    expect(seen).toEqual(await body(missing));
    expect(seen).toMatchObject({ code: "not_found", message: "That team was not found." });
  });

  it("refuses an API key even beside an owner's session, and a request without a session", async () => {
    const keyed = await get("owner", { "x-api-key": "sk_dev_anything" });
    expect(keyed.status).toBe(403);
    expect(await keyed.json()).toMatchObject({ error: { code: "api_key_not_allowed" } });
    const anonymous = await get("nobody");
    expect(anonymous.status).toBe(401);
    expect((await get("owner")).status).toBe(200); // the control
  });
});
