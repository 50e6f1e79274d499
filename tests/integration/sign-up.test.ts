// Sign-up end to end: the two actions as the forms post them, the mail job,
// and a real SMTP server that receives the link (or the "you already have an
// account" note).
import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { createAccount, verifyCredentials } from "@/lib/auth/accounts";
import { API_KEY_REFUSED_MESSAGE } from "@/lib/web/guard";
import { passwordHasher } from "@/lib/auth/password";
import { confirmSignUpAction, signUpAction } from "@/lib/web/actions/sign-up";
import {
  SIGN_UP_ALREADY_DONE_MESSAGE,
  SIGN_UP_LINK_EXPIRED_MESSAGE,
  SIGN_UP_LINK_INVALID_MESSAGE,
  SIGN_UP_WRONG_PASSWORD_MESSAGE,
} from "@/lib/auth/sign-up-messages";
import { tokenDigest } from "@/lib/security/token";
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
const CONFIRM_SUBJECT = "Finish creating your Keyport account";
const EXISTS_SUBJECT = "You already have a Keyport account";

const smtp = smtpServerForFile();
let counter = 0;
const unique = (label: string) => `sign-up-${label}-${Date.now()}-${counter++}@example.com`;
const uniqueIp = () => `198.19.${Math.floor(counter / 250) % 250}.${(counter++ % 250) + 1}`;

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

/** Runs an action; a redirect comes back as { redirect }. */
async function post<T>(action: () => Promise<T>): Promise<T | { redirect: string }> {
  try {
    return await action();
  } catch (error) {
    const redirected = /^NEXT_REDIRECT (.+)$/.exec(String((error as Error).message));
    if (redirected?.[1]) return { redirect: redirected[1] };
    throw error;
  }
}

function signUp(email: string, password = PASSWORD, ip = uniqueIp(), extra: Record<string, string> = {}) {
  request.headers = new Headers({ "x-keyport-peer-ip": ip, ...extra });
  return post(() => signUpAction(null, form({ email, password })));
}

function confirm(token: string, password = PASSWORD, ip = uniqueIp()) {
  request.headers = new Headers({ "x-keyport-peer-ip": ip, "user-agent": "Mozilla/5.0 Firefox/140.0" });
  request.cookies = new Map();
  return post(() => confirmSignUpAction(null, form({ token, password })));
}

/** Runs the mail job and returns the token of the newest sign-up link sent to `email`. */
async function tokenFromMail(email: string) {
  await drainMail();
  const mail = smtp.to(email).findLast((message) => message.subject === CONFIRM_SUBJECT);
  if (!mail) throw new Error(`no sign-up mail for ${email}`);
  const link = new URL(linkIn(mail, getEnv().PUBLIC_BASE_URL));
  expect(link.pathname).toBe("/sign-up/confirm");
  return link.searchParams.get("token") ?? "";
}

beforeEach(async () => {
  await settleAfterWork();
  request.headers = new Headers();
  vi.restoreAllMocks();
});

describe("signing up with a new address", () => {
  it("mails a link; the account exists only once the link is opened and the password typed again", async () => {
    const email = unique("new");
    expect(await signUp(email)).toEqual({ redirect: "/sign-up/check-inbox" });
    expect(await db.user.findUnique({ where: { email } })).toBeNull();

    const token = await tokenFromMail(email);
    const pending = await db.pendingSignUp.findFirstOrThrow({ where: { email } });
    expect(pending.tokenDigest).toBe(tokenDigest(token));
    expect(JSON.stringify(pending)).not.toContain(token);
    expect(pending.passwordHash).toMatch(/^\$argon2id\$/);

    // The link alone is not enough: a wrong password creates nothing.
    expect(await confirm(token, "not the password I chose")).toMatchObject({
      ok: false,
      error: SIGN_UP_WRONG_PASSWORD_MESSAGE,
      fieldErrors: { password: [SIGN_UP_WRONG_PASSWORD_MESSAGE] },
    });
    expect(await db.user.findUnique({ where: { email } })).toBeNull();

    expect(await confirm(token)).toEqual({ redirect: "/dashboard" });
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    // The session, and the device cookie that keeps this browser out of someone else's lockout.
    expect([...request.cookies.keys()].sort()).toEqual(["keyport.device", "keyport.session"]);
    expect(await db.session.count({ where: { userId: user.id } })).toBe(1);
    expect(await db.pendingSignUp.count({ where: { email } })).toBe(0);
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });

    // Each link works once.
    expect(await confirm(token)).toMatchObject({ ok: false, error: SIGN_UP_LINK_INVALID_MESSAGE });
  });

  it("refuses an expired link and a made-up one", async () => {
    const email = unique("expired");
    await signUp(email);
    const token = await tokenFromMail(email);
    await db.pendingSignUp.updateMany({ where: { email }, data: { expiresAt: new Date(Date.now() - 1000) } });
    expect(await confirm(token)).toMatchObject({ ok: false, error: SIGN_UP_LINK_EXPIRED_MESSAGE });
    expect(await confirm("x".repeat(43))).toMatchObject({ ok: false, error: SIGN_UP_LINK_INVALID_MESSAGE });
    expect(await db.user.findUnique({ where: { email } })).toBeNull();
  });

  it("says the address has an account when another link of it was used first", async () => {
    const email = unique("twice");
    await signUp(email);
    const first = await tokenFromMail(email);
    await signUp(email, "another long password");
    const second = await tokenFromMail(email);
    expect(second).not.toBe(first);
    expect(await confirm(second, "another long password")).toEqual({ redirect: "/dashboard" });
    // Every pending sign-up of the address went with it.
    expect(await confirm(first)).toMatchObject({ ok: false, error: SIGN_UP_LINK_INVALID_MESSAGE });
    expect(await verifyCredentials(email, "another long password", uniqueIp())).toMatchObject({ ok: true });
  });

  it("sends at most three links an hour to one address from one network, which cannot hold back its owner's", async () => {
    const email = unique("flood");
    const ip = uniqueIp();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i < 5; i++) {
      expect(await signUp(email, `someone else's password ${i}`, ip)).toEqual({ redirect: "/sign-up/check-inbox" });
    }
    await drainMail();
    expect(smtp.to(email).filter((mail) => mail.subject === CONFIRM_SUBJECT)).toHaveLength(3);
    // The owner, from their own network, still gets a link, and it works with their password.
    await signUp(email, "the owner's own password");
    expect(await confirm(await tokenFromMail(email), "the owner's own password")).toEqual({ redirect: "/dashboard" });
  });

  it("counts wrong passwords at the link toward the sign-in lockout", async () => {
    const email = unique("guess");
    const ip = uniqueIp();
    await signUp(email);
    const token = await tokenFromMail(email);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i < 10; i++) await confirm(token, `guess number ${i}`, ip);
    const locked = await confirm(token, PASSWORD, ip);
    expect(locked).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many attempts\. Try again at/) });
    expect(await db.user.findUnique({ where: { email } })).toBeNull();
  });
});

describe("signing up with a known address", () => {
  it("answers exactly as for a new one, with the same password work, and mails the owner instead", async () => {
    const known = unique("known");
    const created = await createAccount(known, PASSWORD);
    if (!created.ok) throw new Error(created.error);
    const hash = vi.spyOn(passwordHasher, "hash");

    const fresh = unique("fresh");
    const forKnown = await signUp(known, "someone else's password");
    const forNew = await signUp(fresh, "someone else's password");
    expect(forKnown).toEqual({ redirect: "/sign-up/check-inbox" });
    expect(forKnown).toEqual(forNew);
    expect(hash).toHaveBeenCalledTimes(2);
    // Answered before anything that depends on the address: nothing is queued
    // or stored yet, so the answer's time cannot tell the two apart.
    expect(afterWork).toHaveLength(2);
    expect(await db.mailMessage.count({ where: { recipient: { in: [known, fresh] } } })).toBe(0);
    expect(await db.pendingSignUp.count({ where: { email: fresh } })).toBe(0);

    expect(await db.pendingSignUp.count({ where: { email: known } })).toBe(0);
    await drainMail();
    const mails = smtp.to(known);
    expect(mails.map((mail) => mail.subject)).toEqual([EXISTS_SUBJECT]);
    expect(mails[0]?.text).toContain(`${getEnv().PUBLIC_BASE_URL}/sign-in`);
    expect(mails[0]?.text).toContain(`${getEnv().PUBLIC_BASE_URL}/forgot-password`);
    expect(mails[0]?.text).not.toContain("token=");
    // The password is untouched.
    expect(await verifyCredentials(known, PASSWORD, uniqueIp())).toMatchObject({ ok: true });

    // At most one such note an hour.
    await signUp(known);
    await drainMail();
    expect(smtp.to(known)).toHaveLength(1);
  });

  it("says so at the link when the address got an account after the sign-up started", async () => {
    const email = unique("late");
    await signUp(email);
    const token = await tokenFromMail(email);
    await createAccount(email, "the operator's password");
    expect(await confirm(token)).toMatchObject({ ok: false, error: SIGN_UP_ALREADY_DONE_MESSAGE });
  });
});

describe("the sign-up limit per network", () => {
  it("allows five sign-ups an hour from one IP, known addresses included, and refuses the sixth", async () => {
    const ip = uniqueIp();
    const known = unique("probe-target");
    await createAccount(known, PASSWORD);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i < 5; i++) {
      expect(await signUp(i % 2 ? known : unique("batch"), PASSWORD, ip)).toEqual({
        redirect: "/sign-up/check-inbox",
      });
    }
    const sixth = await signUp(unique("batch"), PASSWORD, ip);
    expect(sixth).toMatchObject({ ok: false, error: expect.stringMatching(/^Too many sign-ups from your network/) });
  });

  it("holds for a burst of concurrent sign-ups from one IP: at most five go through", async () => {
    const ip = uniqueIp();
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const results = await Promise.all(Array.from({ length: 12 }, () => signUp(unique("burst"), PASSWORD, ip)));
    expect(results.filter((result) => "redirect" in result).length).toBeLessThanOrEqual(5);
    expect(results.filter((result) => !("redirect" in result)).length).toBeGreaterThanOrEqual(7);
  });
});

it("refuses a request that carries an API key, at both steps", async () => {
  const email = unique("keyed");
  expect(await signUp(email, PASSWORD, uniqueIp(), { authorization: "Bearer sk_dev_x" })).toMatchObject({
    ok: false,
    error: API_KEY_REFUSED_MESSAGE,
  });
  expect(await db.pendingSignUp.count({ where: { email } })).toBe(0);
  request.headers = new Headers({ "x-api-key": "sk_dev_x" });
  expect(
    await post(() => confirmSignUpAction(null, form({ token: "x".repeat(43), password: PASSWORD }))),
  ).toMatchObject({ ok: false, error: API_KEY_REFUSED_MESSAGE });
});
