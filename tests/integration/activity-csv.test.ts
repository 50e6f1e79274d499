// The activity in words, filtered and as CSV (issue 35): every event has a
// sentence, the page's filters (kind of event, key) hold in the list and the
// download, and addresses and browsers reach only the roles the page shows
// them to; someone outside the team gets the 404 of a team that does not exist.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { bareAccount } from "../helpers/bare-account";

const cookies = vi.hoisted(() => new Map<string, string>());

vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => ({
    get: (name: string) => (cookies.has(name) ? { name, value: cookies.get(name) } : undefined),
  }),
}));

const { GET } = await import("@/app/(dashboard)/dashboard/[team]/activity/activity.csv/route");
const { createSession } = await import("@/lib/auth/session-store");
const { addMember, createTeam } = await import("@/lib/teams/members");
const { can, ROLES } = await import("@/lib/teams/roles");
const { createKey, renameKey, revokeKey } = await import("@/lib/keys/lifecycle");
const { listActivity } = await import("@/lib/keys/queries");
const { ACTIVITY_EVENTS, activityText } = await import("@/lib/activity-events");
const { db } = await import("@/lib/db");

const tag = `${Date.now()}-${Math.random().toString(36).slice(2, 8)}`;
const sessions = new Map<string, string>();
let team: { id: string; slug: string };
let billing = "";
let other = "";

beforeAll(async () => {
  const people = new Map<string, { id: string; email: string }>();
  for (const who of [...ROLES, "outsider"]) people.set(who, await bareAccount(`csv-${who}-${tag}@example.com`));
  const operator = (userId: string) => ({ userId, ip: null, userAgent: null, kind: "operator" as const });
  team = await createTeam(operator(people.get("owner")!.id), { name: `Csv ${tag}` });
  for (const role of ROLES.filter((role) => role !== "owner")) {
    await addMember(operator(people.get(role)!.id), team.id, people.get(role)!.id, role);
  }
  const owner = {
    userId: people.get("owner")!.id,
    ip: "::ffff:198.51.100.7",
    userAgent: "Tool/東京",
    kind: "person" as const,
  };
  const made = await createKey(owner, { label: "billing", environment: "dev", expiresAt: null, teamId: team.id });
  billing = made.key.id;
  await renameKey(owner, billing, "billing =SUM(1)");
  other = (await createKey(owner, { label: "other", environment: "dev", expiresAt: null, teamId: team.id })).key.id;
  await revokeKey(owner, other, null);
  for (const [who, person] of people)
    sessions.set(who, (await createSession(person.id, "192.0.2.1", null)).sessionToken);
});

function get(who: string, query = "", slug = team.slug) {
  cookies.clear();
  if (sessions.has(who)) cookies.set("keyport.session", sessions.get(who)!);
  return GET(new Request(`http://localhost/dashboard/${slug}/activity/activity.csv${query}`), {
    params: Promise.resolve({ team: slug }),
  });
}

const lines = async (response: Response) => (await response.text()).trimEnd().split("\r\n");

describe("the activity in words", () => {
  it("has a sentence for every event, and no code shows through", () => {
    for (const [action, event] of Object.entries(ACTIVITY_EVENTS)) {
      expect(event.text, action).not.toMatch(/[._]/);
      expect(activityText(action)).toBe(event.text);
    }
    expect(activityText("auth.password_reset")).toBe("Password reset from a mailed link");
    expect(activityText("something.newer")).toBe("Another change");
  });

  it("filters by kind of event and by key", async () => {
    const all = await listActivity(team, {});
    expect(all.items.map((e) => e.action)).toEqual(
      expect.arrayContaining(["team.created", "team.member_added", "key.created", "key.renamed", "key.revoked"]),
    );
    const keys = await listActivity(team, { kind: "keys" });
    expect(new Set(keys.items.map((e) => e.action))).toEqual(new Set(["key.created", "key.renamed", "key.revoked"]));
    const members = await listActivity(team, { kind: "members" });
    expect(new Set(members.items.map((e) => e.action))).toEqual(new Set(["team.member_added"]));
    const billingOnly = await listActivity(team, { keyId: billing, kind: "keys" });
    expect(billingOnly.items.map((e) => e.action)).toEqual(["key.renamed", "key.created"]);
    expect(await listActivity(team, { keyId: billing, kind: "members" })).toMatchObject({ total: 0 });
  });
});

describe("GET /dashboard/[team]/activity/activity.csv", () => {
  it.each(ROLES)("gives a %s the log, with addresses and browsers only where the page shows them", async (role) => {
    const response = await get(role);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="keyport-${team.slug}-activity.csv"`,
    );
    const [header, ...rows] = await lines(response);
    const origin = can(role, "activity.origin");
    expect(header).toBe(`"time","event","action","key_id","by","count","details"${origin ? ',"ip","user_agent"' : ""}`);
    expect(rows).toHaveLength((await listActivity(team, {})).total);
    const renamed = rows.find((row) => row.includes('"key.renamed"'))!;
    expect(renamed).toContain('"Key renamed"');
    // A label that starts a formula is written as text.
    expect(renamed).toContain(`""to"":""billing =SUM(1)""`);
    if (origin) {
      // The address as a person reads it; the browser as sent, in UTF-8.
      expect(renamed).toMatch(/"198\.51\.100\.7","Tool\/東京"$/);
    } else {
      expect(renamed).not.toContain("198.51.100.7");
    }
  });

  it("keeps the page's filters", async () => {
    const [, ...rows] = await lines(await get("owner", `?kind=keys&key=${billing}`));
    expect(rows.map((row) => row.split(",")[2])).toEqual(['"key.renamed"', '"key.created"']);
    const [, ...none] = await lines(await get("owner", `?kind=members&key=${billing}`));
    expect(none).toEqual([]);
  });

  it("answers someone outside the team as a team that does not exist, and refuses no session and a key", async () => {
    expect((await get("outsider")).status).toBe(404);
    expect((await get("outsider", "", "no-such-team-here")).status).toBe(404);
    expect((await get("nobody")).status).toBe(401);
    cookies.set("keyport.session", sessions.get("owner")!);
    const withKey = await GET(
      new Request(`http://localhost/dashboard/${team.slug}/activity/activity.csv`, {
        headers: { authorization: "Bearer sk_dev_x" },
      }),
      { params: Promise.resolve({ team: team.slug }) },
    );
    expect(withKey.status).toBe(403);
  });
});

describe("a long activity as CSV", () => {
  it("streams every row once, in the chain's order, although rows are written while it is read", async () => {
    const owner = await bareAccount(`csv-long-${tag}@example.com`);
    const operator = { userId: owner.id, ip: null, userAgent: null, kind: "operator" as const };
    const long = await createTeam(operator, { name: `Long ${tag}` });
    const head = await db.teamAuditEvent.aggregate({ where: { teamId: long.id }, _max: { seq: true } });
    const first = (head._max.seq ?? 0) + 1;
    const row = (seq: number) => ({
      teamId: long.id,
      seq,
      action: "key.renamed",
      keyId: null,
      actorKind: "operator",
      actorId: owner.id,
      details: JSON.stringify({ from: `name ${seq - 1}`, to: `name ${seq}` }),
      createdAt: new Date(Date.UTC(2026, 0, 1) + seq * 1000),
      hash: `test-${seq}`,
    });
    await db.teamAuditEvent.createMany({ data: Array.from({ length: 1_250 }, (_, i) => row(first + i)) });
    const before = await db.teamAuditEvent.count({ where: { teamId: long.id } });

    cookies.clear();
    cookies.set("keyport.session", (await createSession(owner.id, "192.0.2.1", null)).sessionToken);
    const response = await GET(new Request(`http://localhost/dashboard/${long.slug}/activity/activity.csv`), {
      params: Promise.resolve({ team: long.slug }),
    });
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    // The header and the first batch, then ten rows are written, as by a member at work.
    for (let i = 0; i < 2; i++) text += decoder.decode((await reader.read()).value, { stream: true });
    await db.teamAuditEvent.createMany({ data: Array.from({ length: 10 }, (_, i) => row(first + 1_250 + i)) });
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) {
      text += decoder.decode(chunk.value, { stream: true });
    }
    const lines = text.trimEnd().split("\r\n").slice(1);
    expect(lines).toHaveLength(before);
    const renamedTo = lines
      .filter((line) => line.includes('"key.renamed"'))
      .map((line) => Number(/name (\d+)""\}"/.exec(line)![1]));
    // Newest first, each once: no row read twice or skipped when the newer rows arrived.
    expect(renamedTo).toEqual(Array.from({ length: 1_250 }, (_, i) => first + 1_249 - i));
  });
});
