import { describe, expect, it, vi } from "vitest";
import type { Actor } from "@/lib/audit";
import { createAccount } from "@/lib/auth/accounts";
import { createSession } from "@/lib/auth/session-store";
import { db } from "@/lib/db";
import { createKey, reportLeak, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import { queueDueNotices } from "@/lib/mail/notice-scans";
import { drainMail } from "../helpers/mail-job-fixtures";
import { smtpServerForFile } from "../helpers/smtp-server";
import { operator, teamWith } from "../helpers/team-people";
import { createServiceAccount } from "@/lib/teams/service-accounts";

// getEnv() caches; here each call reads process.env, so SMTP_URL set below counts.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const CHROME = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36";
const FIREFOX = "Mozilla/5.0 (X11; Linux x86_64; rv:146.0) Gecko/20100101 Firefox/146.0";

const smtp = smtpServerForFile();
let counter = 0;

async function newActor(): Promise<Actor & { email: string }> {
  const email = `notices-${Date.now()}-${counter++}@example.com`;
  const result = await createAccount(email, "a long enough password");
  if (!result.ok) throw new Error(result.error);
  return { userId: result.userId, ip: "192.0.2.20", userAgent: "Vitest", email };
}

const queued = (userId: string, kind: string) =>
  db.mailMessage.findMany({ where: { userId, kind }, orderBy: { createdAt: "asc" } });

describe("expiring keys", () => {
  it("get one notice 7 days before and one 1 day before, however often and by however many instances scanned", async () => {
    const actor = await newActor();
    const now = new Date();
    // Made two days ago to live eight: both thresholds lie ahead of it.
    const { key } = await createKey(
      actor,
      { label: "nightly", environment: "dev", expiresAt: new Date(now.getTime() + 6 * DAY) },
      new Date(now.getTime() - 2 * DAY),
    );
    await queueDueNotices(db, now);
    await Promise.all([queueDueNotices(db, now), queueDueNotices(db, new Date(now.getTime() + HOUR))]);
    expect((await queued(actor.userId, "key_expiring")).map((row) => row.period)).toEqual(["7d"]);

    const dayBefore = new Date(now.getTime() + 5 * DAY + 12 * HOUR);
    await Promise.all([drainMail(dayBefore, ["a", "b"]), drainMail(dayBefore, ["b", "a"])]);
    await drainMail(new Date(dayBefore.getTime() + HOUR), ["a", "b"]);
    const rows = await queued(actor.userId, "key_expiring");
    expect(rows.map((row) => row.period).sort()).toEqual(["1d", "7d"]);
    expect(rows.every((row) => row.subject === key.id && row.sentAt)).toBe(true);

    const mails = smtp.to(actor.email);
    expect(mails.map((mail) => mail.subject).sort()).toEqual([
      "Key expires in 1 day: nightly",
      "Key expires in 7 days: nightly",
    ]);
    expect(mails[0]?.text).toContain(key.id);
  });

  it("first seen inside 1 day get the 1-day notice only; revoked and unexpiring keys get none", async () => {
    const actor = await newActor();
    const now = new Date();
    await createKey(
      actor,
      { label: "soon", environment: "prod", expiresAt: new Date(now.getTime() + 12 * HOUR) },
      new Date(now.getTime() - 3 * DAY),
    );
    const { key: revoked } = await createKey(actor, {
      label: "gone",
      environment: "dev",
      expiresAt: new Date(now.getTime() + 3 * DAY),
    });
    await revokeKey(actor, revoked.id, null, now);
    await createKey(actor, { label: "forever", environment: "dev", expiresAt: null });
    await queueDueNotices(db, now);
    await queueDueNotices(db, new Date(now.getTime() + HOUR));
    const rows = await queued(actor.userId, "key_expiring");
    expect(rows.map((row) => [JSON.parse(row.payload).label, row.period])).toEqual([["soon", "1d"]]);
  });
});

describe("expiry reminders reach someone responsible", () => {
  it("skip a threshold already passed when the key was made", async () => {
    const actor = await newActor();
    const now = new Date();
    // Made now to live 12 hours, and 5 days: neither is told about a threshold it was made inside.
    await createKey(
      actor,
      { label: "half a day", environment: "dev", expiresAt: new Date(now.getTime() + 12 * HOUR) },
      now,
    );
    await createKey(
      actor,
      { label: "five days", environment: "dev", expiresAt: new Date(now.getTime() + 5 * DAY) },
      now,
    );
    await queueDueNotices(db, now);
    expect(await queued(actor.userId, "key_expiring")).toEqual([]);
    // The 5-day key's last day is still a threshold it was made before.
    await queueDueNotices(db, new Date(now.getTime() + 4 * DAY + HOUR));
    const rows = await queued(actor.userId, "key_expiring");
    expect(rows.map((row) => [JSON.parse(row.payload).label, row.period])).toEqual([["five days", "1d"]]);
  });

  it("a service account's key reminds the team's admins and owners, a person's key its maker only, once each across instances", async () => {
    const { team, people } = await teamWith({
      owner: "owner",
      admin: "admin",
      developer: "developer",
      viewer: "viewer",
    });
    const robot = await createServiceAccount(operator(""), team.id, "nightly robot");
    const now = new Date();
    const made = new Date(now.getTime() - 30 * DAY);
    const expiresAt = new Date(now.getTime() + 6 * DAY);
    const { key: robots } = await createKey(
      operator(people.developer!.id),
      { label: "robot's", environment: "prod", expiresAt, teamId: team.id, serviceAccountId: robot.id },
      made,
    );
    const { key: developers } = await createKey(
      operator(people.developer!.id),
      { label: "developer's", environment: "dev", expiresAt, teamId: team.id },
      made,
    );
    // Two instances scanning at once, then one restarted an hour later.
    await Promise.all([queueDueNotices(db, now), queueDueNotices(db, now)]);
    await queueDueNotices(db, new Date(now.getTime() + HOUR));
    const reminders = await db.mailMessage.findMany({
      where: { kind: "key_expiring", subject: { in: [robots.id, developers.id] } },
    });
    const who = (userId: string | null) => Object.entries(people).find(([, p]) => p.id === userId)?.[0];
    expect(
      reminders.map((row) => `${row.subject === robots.id ? "robot's" : "developer's"} to ${who(row.userId)}`).sort(),
    ).toEqual(["developer's to developer", "robot's to admin", "robot's to owner"]);
    expect(reminders.every((row) => row.period.startsWith("7d"))).toBe(true);
  });
});

describe("a revoked key still being tried", () => {
  async function revokedKey(actor: Actor, revokedAt: Date) {
    const { key } = await createKey(
      actor,
      { label: "old-integration", environment: "prod", expiresAt: null },
      revokedAt,
    );
    await revokeKey(actor, key.id, null, revokedAt);
    return db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
  }

  let request = 0;
  const tried = (key: { id: string; userId: string }, at: Date, errorCode = "revoked_api_key") =>
    db.usageEvent.create({
      data: {
        requestId: `req_notices_${Date.now()}_${request++}`,
        keyId: key.id,
        userId: key.userId,
        route: "models.list",
        status: 401,
        errorCode,
        latencyMs: 1,
        ip: "198.51.100.9",
        userAgent: "curl/8",
        createdAt: at,
      },
    });

  it("is told once per UTC day, naming the key and where it was tried from", async () => {
    const actor = await newActor();
    const revokedAt = new Date("2030-03-10T08:00:00Z");
    const key = await revokedKey(actor, revokedAt);
    await tried(key, new Date("2030-03-10T09:00:00Z"));
    await tried(key, new Date("2030-03-10T10:00:00Z"));
    await queueDueNotices(db, new Date("2030-03-10T10:30:00Z"));
    await tried(key, new Date("2030-03-10T11:00:00Z"));
    await Promise.all([
      queueDueNotices(db, new Date("2030-03-10T11:30:00Z")),
      queueDueNotices(db, new Date("2030-03-10T11:31:00Z")),
    ]);
    expect((await queued(actor.userId, "revoked_key_used")).map((row) => row.period)).toEqual(["2030-03-10"]);

    // Nothing new the next day: no new notice (the last attempt was yesterday's, already told).
    await queueDueNotices(db, new Date("2030-03-11T09:00:00Z"));
    expect(await queued(actor.userId, "revoked_key_used")).toHaveLength(1);
    await tried(key, new Date("2030-03-11T09:30:00Z"));
    await queueDueNotices(db, new Date("2030-03-11T10:00:00Z"));
    const rows = await queued(actor.userId, "revoked_key_used");
    expect(rows.map((row) => row.period)).toEqual(["2030-03-10", "2030-03-11"]);

    await drainMail(new Date("2030-03-11T10:00:00Z"), ["a", "b"]);
    const mails = smtp.to(actor.email).filter((mail) => mail.subject.startsWith("A revoked key"));
    expect(mails).toHaveLength(2);
    const latest = mails.find((mail) => mail.text.includes("last at 2030-03-11 09:30 UTC"));
    expect(latest?.text).toContain(key.publicId);
    expect(latest?.text).toContain("198.51.100.9");
  });

  it("is not told for attempts before the revocation, nor for a key that still works", async () => {
    const actor = await newActor();
    const key = await revokedKey(actor, new Date("2030-04-10T08:00:00Z"));
    await tried(key, new Date("2030-04-10T07:00:00Z"), "invalid_api_key");
    const { key: working } = await createKey(actor, { label: "live", environment: "prod", expiresAt: null });
    await tried(
      await db.apiKey.findUniqueOrThrow({ where: { publicId: working.id } }),
      new Date("2030-04-10T09:00:00Z"),
      "rate_limited",
    );
    await queueDueNotices(db, new Date("2030-04-10T10:00:00Z"));
    expect(await queued(actor.userId, "revoked_key_used")).toHaveLength(0);
  });
});

describe("a new sign-in", () => {
  it("is told when the IP or the browser is new to the account, never on the first sign-in", async () => {
    const actor = await newActor();
    const first = await createSession(actor.userId, "203.0.113.50", CHROME);
    await createSession(actor.userId, "203.0.113.50", CHROME);
    expect(await queued(actor.userId, "new_sign_in")).toHaveLength(0);

    const newIp = await createSession(actor.userId, "198.51.100.77", CHROME);
    const newBrowser = await createSession(actor.userId, "203.0.113.50", FIREFOX);
    await createSession(actor.userId, "198.51.100.77", FIREFOX);
    const rows = await queued(actor.userId, "new_sign_in");
    expect(rows.map((row) => row.period).sort()).toEqual([newIp.id, newBrowser.id].sort());
    expect(rows.map((row) => row.period)).not.toContain(first.id);

    await drainMail(new Date(), ["a", "b"]);
    const mails = smtp.to(actor.email).filter((mail) => mail.subject === "New sign-in to your Keyport account");
    expect(mails).toHaveLength(2);
    const fromNewIp = mails.find((mail) => mail.text.includes("IP address: 198.51.100.77"));
    expect(fromNewIp?.text).toContain("Browser: Chrome 156 on Linux");
    const fromNewBrowser = mails.find((mail) => mail.text.includes("Browser: Firefox 146 on Linux"));
    expect(fromNewBrowser?.text).toContain("IP address: 203.0.113.50");
  });
});

describe("production key changes", () => {
  it("are told once each, naming the label and key id and never the secret", async () => {
    const actor = await newActor();
    const created = await createKey(actor, { label: "payments", environment: "prod", expiresAt: null });
    const rotated = await rotateKey(actor, created.key.id, "1h");
    await revokeKey(actor, rotated.key.id, "moved to a new service");
    const other = await createKey(actor, { label: "webhooks", environment: "prod", expiresAt: null });
    const leak = await reportLeak(actor, other.key.id);
    const secrets = [created.secret, rotated.secret, other.secret, leak.replacement?.secret ?? ""];

    const rows = await queued(actor.userId, "key_changed");
    const told: Record<string, string> = {
      [`${created.key.id} created`]: "Production key created: payments",
      [`${created.key.id} rotated`]: "Production key rotated: payments",
      [`${rotated.key.id} revoked`]: "Production key revoked: payments",
      [`${other.key.id} created`]: "Production key created: webhooks",
      [`${other.key.id} leaked`]: "Production key reported leaked and revoked: webhooks",
    };
    expect(rows.map((row) => `${row.subject} ${row.period}`).sort()).toEqual(Object.keys(told).sort());

    await drainMail(new Date(), ["a", "b"]);
    const mails = smtp.to(actor.email).filter((mail) => mail.subject.startsWith("Production key"));
    expect(mails.map((mail) => mail.subject).sort()).toEqual(Object.values(told).sort());
    for (const [about, subject] of Object.entries(told)) {
      const keyId = about.split(" ")[0] ?? "";
      expect(mails.some((mail) => mail.subject === subject && mail.text.includes(keyId))).toBe(true);
    }
    for (const mail of mails) {
      for (const secret of secrets) {
        expect(secret).not.toBe("");
        expect(mail.text).not.toContain(secret);
        expect(mail.raw.html || "").not.toContain(secret);
      }
    }
    for (const row of rows) for (const secret of secrets) expect(JSON.stringify(row)).not.toContain(secret);
  });

  it("of a development key send nothing", async () => {
    const actor = await newActor();
    const { key } = await createKey(actor, { label: "sandbox", environment: "dev", expiresAt: null });
    const rotated = await rotateKey(actor, key.id, "now");
    await revokeKey(actor, rotated.key.id, null);
    const other = await createKey(actor, { label: "sandbox-2", environment: "dev", expiresAt: null });
    await reportLeak(actor, other.key.id);
    expect(await queued(actor.userId, "key_changed")).toHaveLength(0);
    await drainMail();
    expect(smtp.to(actor.email)).toHaveLength(0);
  });
});
