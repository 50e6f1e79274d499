// "Forgot password?" end to end: the actions as the forms post them, the
// mail job, and a real SMTP server that receives the link.
import { createHash } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { createAccount, verifyCredentials } from "@/lib/auth/accounts";
import { API_KEY_REFUSED_MESSAGE } from "@/lib/web/guard";
import { requestPasswordResetAction, resetPasswordAction } from "@/lib/web/actions/password";
import {
  findUsableReset,
  RESET_LINK_EXPIRED_MESSAGE,
  RESET_LINK_INVALID_MESSAGE,
  RESET_LINK_USED_MESSAGE,
  RESET_REQUESTED_MESSAGE,
} from "@/lib/auth/password-reset";
import { createSession, readSession } from "@/lib/auth/session-store";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { afterWork, settleAfterWork } from "../helpers/after-response";
import { drainMail } from "../helpers/mail-job-fixtures";
import { linkIn, smtpServerForFile } from "../helpers/smtp-server";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);
// getEnv() caches; here each call reads process.env, so the job sees SMTP_URL set in beforeAll.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

const PASSWORD = "a long enough password";
const NEW_PASSWORD = "quiet lantern orbit";
const RESET_SUBJECT = "Reset your Keyport password";
const CHANGED_SUBJECT = "Your Keyport password was changed";

const smtp = smtpServerForFile();
let counter = 0;
const unique = (label: string) => `reset-${label}-${Date.now()}-${counter++}@example.com`;
const uniqueIp = () => `198.18.${Math.floor(counter / 250) % 250}.${(counter++ % 250) + 1}`;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function account(label: string) {
  const email = unique(label);
  const result = await createAccount(email, PASSWORD);
  if (!result.ok) throw new Error(result.error);
  return { email, userId: result.userId };
}

function askForReset(email: string, ip = uniqueIp()) {
  request.headers = new Headers({ "x-keyport-peer-ip": ip });
  return requestPasswordResetAction(null, form({ email }));
}

/** Posts the reset form: the redirect it ends with, or the refusal. */
async function useLink(token: string, password: string) {
  request.headers = new Headers({ "x-keyport-peer-ip": uniqueIp(), "user-agent": "Mozilla/5.0 Firefox/140.0" });
  try {
    return await resetPasswordAction(null, form({ token, password }));
  } catch (error) {
    const redirected = /^NEXT_REDIRECT (.+)$/.exec(String((error as Error).message));
    if (redirected) return { redirect: redirected[1] };
    throw error;
  }
}

/** Runs the mail job and returns the token of the newest reset link sent to `email`. */
async function tokenFromMail(email: string) {
  await drainMail();
  const mail = smtp.to(email).findLast((message) => message.subject === RESET_SUBJECT);
  if (!mail) throw new Error(`no reset mail for ${email}`);
  const link = new URL(linkIn(mail, getEnv().PUBLIC_BASE_URL));
  expect(link.pathname).toBe("/reset-password");
  return link.searchParams.get("token") ?? "";
}

beforeEach(async () => {
  await settleAfterWork();
  request.headers = new Headers();
});

describe("resetting a forgotten password", () => {
  it("mails a single-use link that sets the password, ends every session and signs nobody in", async () => {
    const { email, userId } = await account("flow");
    const laptop = await createSession(userId, "203.0.113.20", null);
    const phone = await createSession(userId, "203.0.113.21", null);

    expect(await askForReset(email)).toEqual({ ok: true, data: RESET_REQUESTED_MESSAGE });
    await settleAfterWork();
    // The rows as they are while the link waits in the outbox (sealed), and after it was sent.
    const stored = async () =>
      JSON.stringify([
        ...(await db.passwordReset.findMany({ where: { userId } })),
        ...(await db.mailMessage.findMany({ where: { recipient: email } })),
      ]);
    const beforeSending = await stored();
    expect(beforeSending).toMatch(/"sealedLink":"[^"]+"/);
    const token = await tokenFromMail(email);
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // Only the token's digest is stored, and the sealed link is cleared once sent.
    expect(beforeSending).not.toContain(token);
    expect(await stored()).not.toContain(token);
    expect(await stored()).toContain(createHash("sha256").update(token).digest("hex"));
    expect(await db.passwordReset.count({ where: { userId, usedAt: null } })).toBe(1);

    expect(await useLink(token, NEW_PASSWORD)).toEqual({ redirect: "/sign-in?reset=1" });

    expect(await verifyCredentials(email, NEW_PASSWORD, uniqueIp())).toMatchObject({ ok: true, userId });
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: false });
    expect(await readSession(laptop.sessionToken)).toBeNull();
    expect(await readSession(phone.sessionToken)).toBeNull();
    expect(await db.session.count({ where: { userId } })).toBe(0);
    const user = await db.user.findUniqueOrThrow({ where: { id: userId } });
    expect(user.passwordChangedAt).not.toBeNull();
    expect(await db.auditEvent.count({ where: { userId, action: "auth.password_reset" } })).toBe(1);

    // Spent: the page and the form both say so.
    expect(await findUsableReset(token)).toEqual({ ok: false, error: RESET_LINK_USED_MESSAGE });
    expect(await useLink(token, "another fine passphrase")).toMatchObject({
      ok: false,
      error: RESET_LINK_USED_MESSAGE,
    });
    expect(await verifyCredentials(email, NEW_PASSWORD, uniqueIp())).toMatchObject({ ok: true });

    await drainMail();
    const notices = smtp.to(email).filter((mail) => mail.subject === CHANGED_SUBJECT);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.text).toContain("Firefox 140");
  });

  it("gives an unknown address the same answer, in the same time, and mails nothing", async () => {
    const { email, userId } = await account("known");
    const stranger = unique("nobody");
    const known = await askForReset(email);
    const unknown = await askForReset(stranger);
    expect(unknown).toEqual(known);
    expect(unknown).toEqual({ ok: true, data: RESET_REQUESTED_MESSAGE });
    // Answered before anything that depends on the address: no link exists
    // yet, so the answer's time cannot tell the two apart.
    expect(afterWork).toHaveLength(2);
    expect(await db.passwordReset.count({ where: { userId } })).toBe(0);
    await drainMail();
    expect(smtp.to(stranger)).toHaveLength(0);
    expect(smtp.to(email).filter((mail) => mail.subject === RESET_SUBJECT)).toHaveLength(1);
    expect(await db.mailMessage.count({ where: { recipient: stranger } })).toBe(0);
  });

  it("refuses an expired link and an unknown one, with a way to ask again", async () => {
    const { email, userId } = await account("expired");
    await askForReset(email);
    const token = await tokenFromMail(email);
    await db.passwordReset.updateMany({ where: { userId }, data: { expiresAt: new Date(Date.now() - 1000) } });

    expect(await useLink(token, NEW_PASSWORD)).toMatchObject({ ok: false, error: RESET_LINK_EXPIRED_MESSAGE });
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });

    const forged = "A".repeat(43);
    expect(await useLink(forged, NEW_PASSWORD)).toMatchObject({ ok: false, error: RESET_LINK_INVALID_MESSAGE });
    expect(await useLink("not-a-token", NEW_PASSWORD)).toMatchObject({ ok: false, error: RESET_LINK_INVALID_MESSAGE });
  });

  it("refuses a weak new password with zxcvbn's reason, and leaves the link usable", async () => {
    const { email } = await account("weak");
    await askForReset(email);
    const token = await tokenFromMail(email);

    const weak = await useLink(token, "1234567890");
    expect(weak).toMatchObject({ ok: false, fieldErrors: { password: [expect.stringMatching(/frequently used/)] } });
    expect(JSON.stringify(weak)).not.toContain("1234567890");
    expect(await findUsableReset(token)).toMatchObject({ ok: true, email });
    expect(await useLink(token, NEW_PASSWORD)).toEqual({ redirect: "/sign-in?reset=1" });
  });

  it("lets only one of two racing uses of a link through", async () => {
    const { email } = await account("race");
    await askForReset(email);
    const token = await tokenFromMail(email);
    const outcomes = await Promise.all([useLink(token, NEW_PASSWORD), useLink(token, "another fine passphrase")]);
    expect(outcomes.filter((outcome) => "redirect" in outcome)).toHaveLength(1);
    expect(outcomes.filter((outcome) => "ok" in outcome && !outcome.ok)).toHaveLength(1);
  });

  it("sends at most 3 links an hour for one address, answering the same and logging the rest", async () => {
    const { email } = await account("limit");
    const warn = vi.spyOn(console, "warn");
    for (let i = 0; i < 5; i++) expect(await askForReset(email)).toEqual({ ok: true, data: RESET_REQUESTED_MESSAGE });
    await drainMail();
    expect(smtp.to(email).filter((mail) => mail.subject === RESET_SUBJECT)).toHaveLength(3);
    const events = warn.mock.calls.map(([line]) => (JSON.parse(String(line)) as { event: string }).event);
    expect(events.filter((event) => event === "auth.password_reset.email_limited")).toHaveLength(2);
    warn.mockRestore();
  });

  it("takes at most 10 requests an hour from one network", async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 10; i++) expect(await askForReset(unique("ip"), ip)).toMatchObject({ ok: true });
    const { email } = await account("ip-limited");
    const limited = await askForReset(email, ip);
    expect(limited).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Too many reset requests from your network/),
    });
    await drainMail();
    expect(smtp.to(email)).toHaveLength(0);
    expect(await askForReset(email)).toMatchObject({ ok: true }); // another network
  });

  it("refuses a request that carries an API key, before anything is recorded", async () => {
    const email = unique("keyed");
    request.headers = new Headers({ "x-api-key": "sk_dev_anything" });
    expect(await requestPasswordResetAction(null, form({ email }))).toMatchObject({
      ok: false,
      error: API_KEY_REFUSED_MESSAGE,
    });
    expect(await db.authAttempt.count({ where: { email } })).toBe(0);
  });
});
