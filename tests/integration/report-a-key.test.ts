// The public report form: its action as the form posts it, with no session.
import { describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { afterWork, settleAfterWork } from "../helpers/after-response";
import { bareAccount } from "../helpers/bare-account";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);

const { reportKeyAction } = await import("@/lib/web/actions/report-a-key");
const { NO_KEY_FOUND, REPORTS_PER_IP_PER_HOUR, reportThanks } = await import("@/lib/keys/leak-reports");
const REPORT_THANKS = reportThanks(1);
const { API_KEY_REFUSED_MESSAGE } = await import("@/lib/web/guard");
const { db } = await import("@/lib/db");
const { generateApiKey } = await import("@/lib/keys/format");
const { createKey, revokeKey, rotateKey } = await import("@/lib/keys/lifecycle");
const { listReportedLeaks } = await import("@/lib/keys/queries");

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
    for (const key of [live.secret, revoked.secret, madeUp]) {
      answers.push(await reportFrom(ip, `  ${key}\n`, "https://pastebin.example/abc"));
      // Answered before anything that depends on the key was looked at.
      expect(afterWork).toHaveLength(1);
      await settleAfterWork();
    }
    expect(answers).toEqual(Array(3).fill({ ok: true, data: REPORT_THANKS }));

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
    expect(attempts).toHaveLength(3);
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

  it(`takes ${REPORTS_PER_IP_PER_HOUR} of a burst of 40 concurrent reports from one network, not more`, async () => {
    const ip = `198.51.100.${counter++}`;
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const answers = await Promise.all(Array.from({ length: 40 }, () => reportFrom(ip, generateApiKey("dev"))));
    expect(answers.filter((answer) => answer.ok)).toHaveLength(REPORTS_PER_IP_PER_HOUR);
    expect(await db.authAttempt.count({ where: { kind: "key_report", ip } })).toBe(REPORTS_PER_IP_PER_HOUR);
    await settleAfterWork();
    vi.restoreAllMocks();
  });

  it("revokes every key it read although one revocation fails, trying that one again", async () => {
    const keys = await Promise.all(Array.from({ length: 3 }, () => liveKey()));
    const lifecycle = await import("@/lib/keys/lifecycle");
    const real = lifecycle.revokeLeaked;
    let failures = 0;
    // The second key's first revocation fails, as behind a lock held past the transaction's wait.
    const spy = vi.spyOn(lifecycle, "revokeLeaked").mockImplementation(async (actor, publicId, report) => {
      if (publicId === keys[1]!.key.id && failures++ === 0) throw new Error("Transaction already closed");
      return real(actor, publicId, report);
    });
    const logged: string[] = [];
    vi.spyOn(console, "warn").mockImplementation((...args: unknown[]) => void logged.push(args.join(" ")));
    expect(await reportFrom(`203.0.113.${counter++}`, keys.map((k) => k.secret).join("\n"))).toEqual({
      ok: true,
      data: reportThanks(3),
    });
    // The retry waits its first second.
    await settleAfterWork();
    for (const k of keys) {
      expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: k.key.id } })).revokedReason).toBe("leaked");
    }
    expect(failures).toBe(2);
    expect(logged.join("\n")).toContain("key.report.retrying");
    for (const k of keys) expect(logged.join("\n")).not.toContain(k.secret);
    spy.mockRestore();
    vi.restoreAllMocks();
  });

  it("says a key reported in its rotation's grace has a replacement that goes on working, on the page and in mail", async () => {
    const old = await liveKey();
    const rotated = await rotateKey(old.actor, old.key.id, "24h");
    expect(await reportFrom(`203.0.113.${counter++}`, old.secret)).toEqual({ ok: true, data: REPORT_THANKS });
    await settleAfterWork();
    const teamId = (await db.apiKey.findUniqueOrThrow({ where: { publicId: old.key.id } })).teamId;
    const [leak] = await listReportedLeaks(teamId);
    expect(leak).toMatchObject({ keyId: old.key.id, replacement: { keyId: rotated.key.id } });
    const mail = await db.mailMessage.findFirstOrThrow({ where: { kind: "key_reported_leaked", subject: old.key.id } });
    const { renderMail } = await import("@/lib/mail/templates");
    const text = renderMail("key_reported_leaked", JSON.parse(mail.payload), "https://keyport.example", null).text;
    expect(text).toContain(`its replacement, "${rotated.key.label}" (${rotated.key.id}), goes on working`);
    expect(text).not.toContain("No replacement was issued");
    // Control: a key with no rotation behind it is said to have none.
    const lone = await liveKey();
    await reportFrom(`203.0.113.${counter++}`, lone.secret);
    await settleAfterWork();
    const loneMail = await db.mailMessage.findFirstOrThrow({
      where: { kind: "key_reported_leaked", subject: lone.key.id },
    });
    expect(
      renderMail("key_reported_leaked", JSON.parse(loneMail.payload), "https://keyport.example", null).text,
    ).toContain("No replacement was issued");
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
    // The attack review of issue 35: a percent-escaped zero-width space or space inside the prefix hid a key from
    // the redaction, and it was kept in the audit row and mailed.
    // And a key split by an escaped line break, space or tab, or by a slash: the redaction cut the first piece and
    // kept the rest, 19 of the key's 32 random characters (the attack review of issues 30 and 32).
    const splitBy = (separator: string) => `${other.slice(0, 20)}${separator}${other.slice(20)}`;
    for (const hidden of [
      escaped,
      other.replace("sk_", "sk%E2%80%8B_"),
      other.replace("sk_", "s%20k_"),
      ...["%0a", "%20", "%09", "/", "+;*", "%250a", "~"].map(splitBy),
    ]) {
      expect(
        await reportFrom(`192.0.2.${counter++}`, other, `https://pastebin.example/raw/abc?token=${hidden}`),
        hidden.slice(0, 12),
      ).toMatchObject({
        ok: false,
        fieldErrors: {
          url: ["That address holds an API key in an encoded form: remove the key from it, or leave it empty."],
        },
      });
    }
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
  it("finds every key in what was pasted: a .env line, quotes, JSON, a URL, a log line, several at once", async () => {
    const keys = await Promise.all(Array.from({ length: 6 }, () => liveKey()));
    const [env, quoted, json, url, log, glued] = keys.map((k) => k.secret);
    const pasted = [
      `KEYPORT_KEY=${env}`,
      `const key = "${quoted}";`,
      JSON.stringify({ keyport: { apiKey: json } }),
      `curl 'https://api.example.com/v1?key=${url}&x=1'`,
      `2026-11-27T10:00:00Z INFO calling with Authorization: Bearer ${log}, status=200`,
      `token:${glued}trailing`,
      // The same key twice is read once; a look-alike and a key with a wrong checksum are not keys.
      `again ${env} sk_dev_notes2024.txt ${env!.slice(0, -1)}${env!.endsWith("A") ? "B" : "A"}`,
    ].join("\n");
    const ip = `203.0.113.${counter++}`;
    expect(await reportFrom(ip, pasted)).toEqual({ ok: true, data: reportThanks(6) });
    expect(afterWork).toHaveLength(1);
    // Nothing is revoked before the answer.
    for (const k of keys)
      expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: k.key.id } })).revokedAt).toBeNull();
    await settleAfterWork();
    for (const k of keys) {
      expect(await db.apiKey.findUniqueOrThrow({ where: { publicId: k.key.id } })).toMatchObject({
        revokedReason: "leaked",
        leakSource: "public-report",
        successorId: null,
      });
    }
    // One accepted report, however many keys it held.
    expect(await db.authAttempt.count({ where: { kind: "key_report", ip } })).toBe(1);
  });

  it("says it found no key in text without one, and answers by the count of keys, not what they were", async () => {
    const ip = `203.0.113.${counter++}`;
    for (const text of ["hello world", "sk_dev_notes2024.txt", `KEYPORT_KEY=${"x".repeat(45)}`]) {
      expect(await reportFrom(ip, text)).toMatchObject({ ok: false, fieldErrors: { key: [NO_KEY_FOUND] } });
    }
    // Refused before counting: no report was accepted, nothing waits to run.
    expect(await db.authAttempt.count({ where: { kind: "key_report", ip } })).toBe(0);
    expect(afterWork).toHaveLength(0);

    const live = await liveKey();
    const answerLive = await reportFrom(ip, `A=${live.secret}\nB=${generateApiKey("dev")}`);
    const answerMadeUp = await reportFrom(ip, `A=${generateApiKey("prod")}\nB=${generateApiKey("dev")}`);
    expect(answerLive).toEqual({ ok: true, data: reportThanks(2) });
    expect(answerMadeUp).toEqual(answerLive);
    await settleAfterWork();
    expect((await db.apiKey.findUniqueOrThrow({ where: { publicId: live.key.id } })).revokedReason).toBe("leaked");
  });

  it("reads up to 20,000 characters and 50 keys, and says so past either", async () => {
    const ip = `203.0.113.${counter++}`;
    const fifty = Array.from({ length: 50 }, () => generateApiKey("dev"));
    expect(await reportFrom(ip, fifty.join("\n"))).toEqual({ ok: true, data: reportThanks(50) });
    await settleAfterWork();
    expect(await reportFrom(ip, [...fifty, generateApiKey("prod")].join("\n"))).toMatchObject({
      ok: false,
      fieldErrors: { key: ["That holds 51 keys: report at most 50 at a time."] },
    });
    const long = `${generateApiKey("dev")} ${"x".repeat(20_000)}`;
    expect(await reportFrom(ip, long)).toMatchObject({
      ok: false,
      fieldErrors: { key: ["Paste at most 20,000 characters: the part that holds the keys."] },
    });
    expect(afterWork).toHaveLength(0);
  });
});
