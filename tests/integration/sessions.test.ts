import { describe, expect, it } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import {
  createSession,
  deleteSessionByToken,
  endOtherSessions,
  endSession,
  endSessionAfterStepUpFailures,
  endedSessionNotice,
  listSessions,
  readSession,
} from "@/lib/auth/session-store";
import { db } from "@/lib/db";
import { generateApiKey } from "@/lib/keys/format";

const DAY = 24 * 60 * 60 * 1000;
let counter = 0;

async function newUser() {
  const email = `session-${Date.now()}-${counter++}@example.com`;
  const result = await createAccount(email, "a long enough password");
  if (!result.ok) throw new Error(result.error);
  return result.userId;
}

describe("server-side sessions", () => {
  it("mint an opaque 32-byte token and record IP and browser", async () => {
    const userId = await newUser();
    const session = await createSession(userId, "203.0.113.7", "Mozilla/5.0 Chrome/156.0");
    expect(Buffer.from(session.sessionToken, "base64url")).toHaveLength(32);
    expect(session.sessionToken).not.toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-/);
    expect(session).toMatchObject({ ip: "203.0.113.7", userAgent: "Mozilla/5.0 Chrome/156.0" });
    expect(await readSession(session.sessionToken)).toMatchObject({ id: session.id, userId });
  });

  it("are gone after sign-out", async () => {
    const session = await createSession(await newUser(), "203.0.113.8", null);
    await deleteSessionByToken(session.sessionToken);
    expect(await readSession(session.sessionToken)).toBeNull();
  });

  it("end 30 days after sign-in even when used every day", async () => {
    const start = new Date();
    const session = await createSession(await newUser(), "203.0.113.9", null, start);
    for (let day = 1; day < 30; day++) {
      expect(await readSession(session.sessionToken, new Date(start.getTime() + day * DAY))).not.toBeNull();
    }
    expect(await readSession(session.sessionToken, new Date(start.getTime() + 30 * DAY + 1000))).toBeNull();
    expect(await db.session.count({ where: { id: session.id } })).toBe(0);
  });

  it("end after 7 idle days", async () => {
    const start = new Date();
    const session = await createSession(await newUser(), "203.0.113.10", null, start);
    expect(await readSession(session.sessionToken, new Date(start.getTime() + 6 * DAY))).not.toBeNull();
    expect(await readSession(session.sessionToken, new Date(start.getTime() + 13 * DAY + 1000))).toBeNull();
  });

  it("record last seen at most once a minute", async () => {
    const start = new Date();
    const session = await createSession(await newUser(), "203.0.113.11", null, start);
    await readSession(session.sessionToken, new Date(start.getTime() + 30_000));
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).lastSeenAt).toEqual(start);
    const later = new Date(start.getTime() + 90_000);
    await readSession(session.sessionToken, later);
    expect((await db.session.findUniqueOrThrow({ where: { id: session.id } })).lastSeenAt).toEqual(later);
  });

  it("can be ended one by one or all but the current, and only by their owner", async () => {
    const owner = await newUser();
    const stranger = await newUser();
    const by = { userId: owner, ip: "203.0.113.99", userAgent: "Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0" };
    const current = await createSession(owner, "203.0.113.12", null);
    const laptop = await createSession(owner, "203.0.113.13", null);
    const phone = await createSession(owner, "203.0.113.14", null);

    expect(await endSession({ ...by, userId: stranger }, laptop.id)).toBe(false);
    expect(await readSession(laptop.sessionToken)).not.toBeNull();
    expect(await endedSessionNotice(laptop.sessionToken)).toBeNull();
    expect(await endSession(by, laptop.id)).toBe(true);
    expect(await readSession(laptop.sessionToken)).toBeNull();

    expect(await endOtherSessions(by, current.id)).toBe(1);
    expect(await readSession(phone.sessionToken)).toBeNull();
    expect((await listSessions(owner)).map((s) => s.id)).toEqual([current.id]);

    // The browsers that held them can be told why, from where; the current one has nothing to be told.
    expect(await endedSessionNotice(laptop.sessionToken)).toMatchObject({
      reason: "ended_elsewhere",
      endedFromIp: "203.0.113.99",
    });
    expect(await endedSessionNotice(phone.sessionToken)).toMatchObject({ reason: "all_others_ended" });
    expect(await endedSessionNotice(current.sessionToken)).toBeNull();
    // The record holds a digest of the token, never the token.
    const rows = await db.endedSession.findMany({ where: { userId: owner } });
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(JSON.stringify(row)).not.toContain(laptop.sessionToken);
    // The notice lasts a week, no longer.
    expect(await endedSessionNotice(laptop.sessionToken, new Date(Date.now() + 8 * 24 * 3600_000))).toBeNull();
    expect(await db.auditEvent.count({ where: { userId: owner, action: "auth.sessions_ended" } })).toBe(2);
  });

  it("keep no key sent in the user agent: the session, who ended it, the activity log, the mail", async () => {
    const owner = await newUser();
    const key = generateApiKey("dev");
    // A byte HTTP allows in a header, inside the key: removed before the redaction, so it cannot hide the key.
    const userAgent = `curl/8.5.0 ${key.slice(0, 20)}\u0085${key.slice(20)}`;
    const session = await createSession(owner, "203.0.113.15", userAgent);
    expect(session.userAgent).toBe("curl/8.5.0 sk_dev_[redacted]");
    expect(await endSession({ userId: owner, ip: "203.0.113.16", userAgent }, session.id)).toBe(true);
    expect((await endedSessionNotice(session.sessionToken))?.endedFromUa).toBe("curl/8.5.0 sk_dev_[redacted]");
    const audit = await db.auditEvent.findMany({ where: { userId: owner }, orderBy: { seq: "asc" } });
    expect(audit.map((row) => [row.action, row.userAgent])).toEqual([
      ["auth.sign_in", "curl/8.5.0 sk_dev_[redacted]"],
      ["auth.sessions_ended", "curl/8.5.0 sk_dev_[redacted]"],
    ]);
    // The mail about a session ended after five wrong answers names the browser: Bowser names an unknown client by
    // its first word, here the key.
    const held = await createSession(owner, "203.0.113.17", null);
    const thief = { userId: owner, ip: "203.0.113.18", userAgent: `${key}/1.0 (X11; Linux x86_64)` };
    expect(await endSessionAfterStepUpFailures(thief, held.id)).toBe(true);
    const mail = await db.mailMessage.findFirstOrThrow({ where: { kind: "step_up_failed", userId: owner } });
    expect(JSON.parse(mail.payload)).toMatchObject({ browser: "sk_dev_[redacted] 1 on Linux" });
  });

  it("refuse tokens that are not ours", async () => {
    expect(await readSession(undefined)).toBeNull();
    expect(await readSession("x".repeat(500))).toBeNull();
    expect(await readSession("not-a-token")).toBeNull();
  });
});
