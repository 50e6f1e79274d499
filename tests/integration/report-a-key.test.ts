// The public report form: its action as the form posts it, with no session.
import { describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { afterWork, settleAfterWork } from "../helpers/after-response";
import { bareAccount } from "../helpers/bare-account";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);

const { reportKeyAction } = await import("@/lib/web/actions/report-a-key");
const { REPORT_THANKS, REPORTS_PER_IP_PER_HOUR } = await import("@/lib/keys/leak-reports");
const { API_KEY_REFUSED_MESSAGE } = await import("@/lib/web/guard");
const { db } = await import("@/lib/db");
const { generateApiKey } = await import("@/lib/keys/format");
const { createKey, revokeKey } = await import("@/lib/keys/lifecycle");

let counter = 0;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

function reportFrom(ip: string, key: string, url = "") {
  request.headers = new Headers({ "x-keyport-peer-ip": ip });
  return reportKeyAction(null, form({ key, url }));
}

async function liveKey() {
  const user = await bareAccount(`report-${Date.now()}-${counter++}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: null };
  return { actor, ...(await createKey(actor, { label: `pasted ${counter}`, environment: "prod", expiresAt: null })) };
}

describe("reporting a key found in public", () => {
  it("revokes a live key and answers exactly the same for a live, a revoked and a made-up key", async () => {
    const live = await liveKey();
    const revoked = await liveKey();
    await revokeKey(revoked.actor, revoked.key.id, null);
    const madeUp = generateApiKey("prod");
    const ip = `203.0.113.${counter++}`;
    const logged: string[] = [];
    for (const level of ["log", "info", "warn", "error"] as const) {
      vi.spyOn(console, level).mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
    }

    const answers = [];
    for (const key of [live.secret, revoked.secret, madeUp, "not a key at all"]) {
      answers.push(await reportFrom(ip, `  ${key}\n`, "https://pastebin.example/abc"));
      // Answered before anything that depends on the key was looked at.
      expect(afterWork).toHaveLength(1);
      await settleAfterWork();
    }
    expect(answers).toEqual(Array(4).fill({ ok: true, data: REPORT_THANKS }));

    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: live.key.id } });
    expect(row).toMatchObject({
      revokedReason: "leaked",
      leakSource: "public-report",
      leakUrl: "https://pastebin.example/abc",
      successorId: null,
    });
    const audit = await db.teamAuditEvent.findFirstOrThrow({
      where: { actorId: live.actor.userId, action: "key.leaked" },
    });
    expect(audit.userAgent).toBe("public-report");
    expect(await db.mailMessage.count({ where: { kind: "key_reported_leaked", subject: live.key.id } })).toBe(1);
    // The revoked key stays as its owner left it.
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: revoked.key.id } })).leakSource).toBeNull();

    // Nothing of what was pasted is kept or logged.
    const attempts = await db.authAttempt.findMany({ where: { kind: "key_report", ip } });
    expect(attempts).toHaveLength(4);
    for (const pasted of [live.secret, revoked.secret, madeUp]) {
      expect(JSON.stringify(attempts)).not.toContain(pasted);
      expect(logged.join("\n")).not.toContain(pasted);
      expect(JSON.stringify(await db.teamAuditEvent.findMany({ where: { actorId: live.actor.userId } }))).not.toContain(
        pasted,
      );
    }
    vi.restoreAllMocks();
  });

  it(`takes ${REPORTS_PER_IP_PER_HOUR} reports an hour from one network, then says when to try again`, async () => {
    const ip = `198.51.100.${counter++}`;
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i < REPORTS_PER_IP_PER_HOUR; i++) {
      expect(await reportFrom(ip, generateApiKey("dev"))).toEqual({ ok: true, data: REPORT_THANKS });
    }
    for (let i = 0; i < 3; i++) {
      expect(await reportFrom(ip, generateApiKey("dev"))).toMatchObject({
        ok: false,
        error: expect.stringMatching(/^Too many reports from your network\. Try again at \d\d:\d\d UTC\.$/),
      });
    }
    // Refused reports are not counted, so retrying does not push the time back.
    expect(await db.authAttempt.count({ where: { kind: "key_report", ip } })).toBe(REPORTS_PER_IP_PER_HOUR);
    await settleAfterWork();
    vi.restoreAllMocks();
  });

  it("keeps where a key was found as one URL: a reporter cannot write lines into the owner's email", async () => {
    const live = await liveKey();
    const url = "https://example.com/x\r\n\r\nURGENT: your account is locked. Sign in at https://evil.example/";
    expect(await reportFrom(`192.0.2.${counter++}`, live.secret, url)).toEqual({ ok: true, data: REPORT_THANKS });
    await settleAfterWork();
    const kept = (await db.apiKey.findUniqueOrThrow({ where: { publicId: live.key.id } })).leakUrl!;
    expect(kept).toMatch(/^https:\/\/example\.com\/x/);
    expect(kept).not.toMatch(/[\r\n ]/);
    const mail = await db.mailMessage.findFirstOrThrow({
      where: { kind: "key_reported_leaked", subject: live.key.id },
    });
    expect(mail.payload).not.toMatch(/\\r|\\n/);
    expect(await reportFrom("192.0.2.201", generateApiKey("dev"), "javascript:alert(1)")).toMatchObject({
      ok: false,
      fieldErrors: { url: ["Give a web address (https://…), or leave it empty."] },
    });
  });

  it("keeps where a key was found with every key in it redacted, and refuses one hidden by an encoding", async () => {
    const live = await liveKey();
    const other = generateApiKey("dev");
    // A tab inside a key: the URL parser drops it, so the redaction must come after the parsing.
    const split = `${other.slice(0, 20)}\t${other.slice(20)}`;
    const url = `https://pastebin.example/raw/abc?token=${live.secret}&backup=${split}`;
    expect(await reportFrom(`192.0.2.${counter++}`, live.secret, url)).toEqual({ ok: true, data: REPORT_THANKS });
    await settleAfterWork();
    const redacted = "https://pastebin.example/raw/abc?token=sk_prod_[redacted]&backup=sk_dev_[redacted]";
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: live.key.id } })).leakUrl).toBe(redacted);
    const audit = await db.teamAuditEvent.findFirstOrThrow({
      where: { actorId: live.actor.userId, action: "key.leaked" },
    });
    expect(JSON.parse(audit.details!)).toMatchObject({ source: "public-report", url: redacted });
    const mail = await db.mailMessage.findFirstOrThrow({
      where: { kind: "key_reported_leaked", subject: live.key.id },
    });
    expect(mail.payload).toContain("sk_prod_[redacted]");
    for (const secret of [live.secret, other]) expect(mail.payload).not.toContain(secret.slice(8));

    const escaped = encodeURIComponent(other).replace(/_/g, "%5F");
    expect(await reportFrom("192.0.2.202", other, `https://pastebin.example/raw/abc?token=${escaped}`)).toMatchObject({
      ok: false,
      fieldErrors: {
        url: ["That address holds an API key in an encoded form: remove the key from it, or leave it empty."],
      },
    });
    expect(afterWork).toHaveLength(0);
  });

  it("refuses a request that carries an API key in a header, and asks for the key when the field is empty", async () => {
    request.headers = new Headers({ authorization: `Bearer ${generateApiKey("dev")}` });
    expect(await reportKeyAction(null, form({ key: generateApiKey("dev"), url: "" }))).toMatchObject({
      ok: false,
      error: API_KEY_REFUSED_MESSAGE,
    });
    expect(await reportFrom("192.0.2.200", "   ")).toMatchObject({
      ok: false,
      fieldErrors: { key: ["Paste the key you found."] },
    });
    expect(afterWork).toHaveLength(0);
  });
});
