import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";

// A fresh sign-in before production key changes, checked on the server: the
// key actions called directly (not through the dialog) refuse a session that
// last proved itself over 10 minutes ago, and change nothing.
vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

const { createAccount } = await import("@/lib/auth/accounts");
const { createSession } = await import("@/lib/auth/session-store");
const { stepUpAction } = await import("@/lib/web/actions/step-up");
const { STEP_UP_WINDOW_MS, stepUpMethods } = await import("@/lib/auth/step-up");
const { createKeyAction, revokeKeyAction, rotateKeyAction, updateRestrictionsAction } =
  await import("@/lib/web/actions/keys");
const { db } = await import("@/lib/db");
const { createKey } = await import("@/lib/keys/lifecycle");
const { addMember, createTeam } = await import("@/lib/teams/members");
const { createServiceAccount } = await import("@/lib/teams/service-accounts");
const { deleteTeamAction, removeMemberAction } = await import("@/lib/web/actions/teams");
const operator = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "operator" as const });

const PASSWORD = "a long enough password";
let counter = 0;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** A signed-in browser whose session last proved itself `ageMs` ago. */
async function signedIn(ageMs: number) {
  const email = `stepup-${Date.now()}-${counter++}@example.com`;
  const result = await createAccount(email, PASSWORD);
  if (!result.ok) throw new Error(result.error);
  const session = await createSession(result.userId, "192.0.2.1", "vitest");
  await db.session.update({ where: { id: session.id }, data: { verifiedAt: new Date(Date.now() - ageMs) } });
  request.cookies.set("keyport.session", session.sessionToken);
  return { userId: result.userId, sessionId: session.id };
}

async function newKey(environment: "dev" | "prod", label: string) {
  const created = await createKeyAction(null, form({ label, environment, expiry: "never" }));
  if (!created.ok) throw new Error(created.error);
  return created.data.keyId;
}

const STALE = STEP_UP_WINDOW_MS + 60_000;

beforeEach(() => {
  request.cookies.clear();
  request.headers = new Headers({ "user-agent": "vitest", "x-keyport-peer-ip": "192.0.2.1" });
});

describe("a fresh sign-in before production key changes", () => {
  it("is not needed within 10 minutes of signing in", async () => {
    await signedIn(STEP_UP_WINDOW_MS - 60_000);
    const keyId = await newKey("prod", "fresh prod");
    expect(await rotateKeyAction(null, form({ keyId, grace: "now" }))).toMatchObject({ ok: true });
  });

  it("is asked for by every production key action on a stale session, which then changes nothing", async () => {
    const { userId, sessionId } = await signedIn(0);
    const keyId = await newKey("prod", "stale prod");
    await db.session.update({ where: { id: sessionId }, data: { verifiedAt: new Date(Date.now() - STALE) } });
    const refusals = [
      await createKeyAction(null, form({ label: "another", environment: "prod", expiry: "never" })),
      await rotateKeyAction(null, form({ keyId, grace: "now" })),
      await revokeKeyAction(null, form({ keyId })),
      await updateRestrictionsAction(null, form({ keyId, access: "all", allowedIps: "10.0.0.0/8", rateLimit: "" })),
    ];
    for (const refusal of refusals) {
      expect(refusal).toMatchObject({
        ok: false,
        fieldErrors: { stepUp: [expect.stringMatching(/^Confirm it’s you/)] },
      });
    }
    const keys = await db.apiKey.findMany({ where: { userId } });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ revokedAt: null, successorId: null, allowedIps: null, version: 0 });
  });

  it("leaves development keys alone", async () => {
    await signedIn(STALE);
    const keyId = await newKey("dev", "stale dev");
    expect(await rotateKeyAction(null, form({ keyId, grace: "now" }))).toMatchObject({ ok: true });
  });

  it("is given by the password (a wrong one counts against the session, not the lockout), and the change then goes through", async () => {
    const { sessionId } = await signedIn(0);
    const keyId = await newKey("prod", "confirm prod");
    await db.session.update({ where: { id: sessionId }, data: { verifiedAt: new Date(Date.now() - STALE) } });
    const before = await db.authAttempt.count({ where: { kind: "sign_in", success: false } });
    expect(await stepUpAction(null, form({ password: "not the password" }))).toMatchObject({
      ok: false,
      error: "That password is not right. 4 more wrong answers sign this session out.",
      values: {},
    });
    expect(await db.authAttempt.count({ where: { kind: "sign_in", success: false } })).toBe(before);
    expect(await db.session.findUnique({ where: { id: sessionId } })).toMatchObject({ stepUpFailures: 1 });
    expect(await rotateKeyAction(null, form({ keyId, grace: "now" }))).toMatchObject({ ok: false });
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({ ok: true });
    expect(await db.session.findUnique({ where: { id: sessionId } })).toMatchObject({ stepUpFailures: 0 });
    expect(await rotateKeyAction(null, form({ keyId, grace: "now" }))).toMatchObject({ ok: true });
  });

  it("for an account that signs in with GitHub only, takes no password: a new sign-in is its proof", async () => {
    const { userId, sessionId } = await signedIn(0);
    const keyId = await newKey("prod", "github prod");
    // As the GitHub adapter makes them: no password.
    await db.user.update({ where: { id: userId }, data: { passwordHash: null } });
    await db.session.update({ where: { id: sessionId }, data: { verifiedAt: new Date(Date.now() - STALE) } });
    expect(await stepUpMethods(userId)).toEqual({ password: false, twoFactor: false });
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({ ok: false });
    expect(await stepUpAction(null, form({ password: "" }))).toMatchObject({ ok: false });
    expect(await revokeKeyAction(null, form({ keyId }))).toMatchObject({ ok: false });
    // Signing in with GitHub again makes a new session, proved now.
    const fresh = await createSession(userId, "192.0.2.1", "vitest");
    request.cookies.set("keyport.session", fresh.sessionToken);
    expect(await revokeKeyAction(null, form({ keyId }))).toMatchObject({ ok: true });
  });

  it("refuses the confirmation itself without a session", async () => {
    expect(await stepUpAction(null, form({ password: PASSWORD }))).toMatchObject({
      ok: false,
      error: "Your session has ended. Sign in again.",
    });
  });
});

describe("a fresh sign-in before a team change that ends or moves production keys", () => {
  /** A team owned by a stale session, with a developer and a service account, and a key made as `maker`. */
  async function staleOwnerWithTeam() {
    const owner = await signedIn(STALE);
    const team = await createTeam(operator(owner.userId), { name: `Step-up team ${counter++}` });
    const dev = await createAccount(`stepup-dev-${Date.now()}-${counter++}@example.com`, PASSWORD);
    if (!dev.ok) throw new Error(dev.error);
    await addMember(operator(dev.userId), team.id, dev.userId, "developer");
    const bot = await createServiceAccount(operator(owner.userId), team.id, `bot ${counter++}`);
    const key = async (environment: "dev" | "prod", maker: string, serviceAccountId?: string) =>
      (
        await createKey(operator(maker), {
          label: `${environment} key`,
          environment,
          expiresAt: null,
          teamId: team.id,
          serviceAccountId,
        })
      ).key.id;
    return { owner, team, dev: dev.userId, bot: bot.id, key };
  }

  const refusedForStepUp = {
    ok: false,
    fieldErrors: { stepUp: [expect.stringMatching(/^Confirm it’s you/)] },
  };
  const revokedAt = async (keyId: string) =>
    (await db.apiKey.findUniqueOrThrow({ where: { publicId: keyId } })).revokedAt;

  it("asks for it to remove a member whose production key the removal revokes, and then changes nothing", async () => {
    const { team, dev, key } = await staleOwnerWithTeam();
    const theirs = await key("prod", dev);
    expect(await removeMemberAction(null, form({ team: team.slug, userId: dev }))).toMatchObject(refusedForStepUp);
    expect(await revokedAt(theirs)).toBeNull();
    expect(await db.membership.count({ where: { teamId: team.id, userId: dev } })).toBe(1);
  });

  it("asks for it to revoke a service account's production key the leaver made (attack review)", async () => {
    const { team, dev, bot, key } = await staleOwnerWithTeam();
    const botKey = await key("prod", dev, bot);
    const result = await removeMemberAction(
      null,
      form({ team: team.slug, userId: dev, [`handover.${botKey}`]: "revoke" }),
    );
    expect(result).toMatchObject(refusedForStepUp);
    expect(await revokedAt(botKey)).toBeNull();
  });

  it("asks for it to delete a team holding a production key", async () => {
    const { team, owner, key } = await staleOwnerWithTeam();
    const ownKey = await key("prod", owner.userId);
    expect(await deleteTeamAction(null, form({ team: team.slug, confirm: team.slug }))).toMatchObject(refusedForStepUp);
    expect(await revokedAt(ownKey)).toBeNull();
    expect(await db.team.count({ where: { id: team.id } })).toBe(1);
  });

  it("is not asked for when only development keys change (control: the same removal goes through)", async () => {
    const { team, dev, key } = await staleOwnerWithTeam();
    const theirs = await key("dev", dev);
    // A production key of theirs that has expired ends nothing (the second attack review: it asked all the same).
    const expired = await key("prod", dev);
    await db.apiKey.update({ where: { publicId: expired }, data: { expiresAt: new Date(Date.now() - 60_000) } });
    expect(await removeMemberAction(null, form({ team: team.slug, userId: dev }))).toMatchObject({ ok: true });
    expect(await revokedAt(theirs)).not.toBeNull();
  });
});
