// Changing the password from the account page: the action as the form posts
// it, with a session cookie, and the notice through a real SMTP server.
import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { createAccount, verifyCredentials } from "@/lib/auth/accounts";
import { SESSION_REQUIRED_MESSAGE } from "@/lib/web/guard";
import { changePasswordAction } from "@/lib/web/actions/password";
import { SAME_PASSWORD_MESSAGE, WRONG_CURRENT_PASSWORD_MESSAGE } from "@/lib/auth/password-change";
import { checkPasswordStrength } from "@/lib/auth/password-strength";
import { createSession, endedSessionNotice, readSession } from "@/lib/auth/session-store";
import { db } from "@/lib/db";
import { drainMail } from "../helpers/mail-job-fixtures";
import { smtpServerForFile } from "../helpers/smtp-server";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));
// getEnv() caches; here each call reads process.env, so the job sees SMTP_URL set in beforeAll.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

const PASSWORD = "a long enough password";
const NEW_PASSWORD = "quiet lantern orbit";
const CHANGED_SUBJECT = "Your Keyport password was changed";

const smtp = smtpServerForFile();
let counter = 0;
const uniqueIp = () => `198.19.${Math.floor(counter / 250) % 250}.${(counter++ % 250) + 1}`;

/** An account with three sessions; the request comes from the first. */
async function signedIn(label: string) {
  const email = `change-${label}-${Date.now()}-${counter++}@example.com`;
  const result = await createAccount(email, PASSWORD);
  if (!result.ok) throw new Error(result.error);
  const userId = result.userId;
  const current = await createSession(userId, "203.0.113.30", null);
  const others = [await createSession(userId, "203.0.113.31", null), await createSession(userId, "203.0.113.32", null)];
  request.cookies = new Map([["keyport.session", current.sessionToken]]);
  request.headers = new Headers({ "x-keyport-peer-ip": uniqueIp(), "user-agent": "Mozilla/5.0 Firefox/140.0" });
  return { email, userId, current, others };
}

function change(currentPassword: string, newPassword: string) {
  const data = new FormData();
  data.set("currentPassword", currentPassword);
  data.set("newPassword", newPassword);
  return changePasswordAction(null, data);
}

const notices = (email: string) => smtp.to(email).filter((mail) => mail.subject === CHANGED_SUBJECT);

beforeEach(() => {
  request.headers = new Headers();
  request.cookies = new Map();
});

describe("changing the password", () => {
  it("sets the new one, keeps this session, ends the others and mails a notice once", async () => {
    const { email, userId, current, others } = await signedIn("ok");
    expect(await change(PASSWORD, NEW_PASSWORD)).toEqual({
      ok: true,
      data: "Password changed. 2 other sessions were signed out.",
    });

    expect(await readSession(current.sessionToken)).toMatchObject({ id: current.id });
    for (const other of others) {
      expect(await readSession(other.sessionToken)).toBeNull();
      // The signed-out browser is told the password changed, not that someone chose "End all other sessions".
      expect(await endedSessionNotice(other.sessionToken)).toMatchObject({ reason: "password_changed" });
    }
    expect(await verifyCredentials(email, NEW_PASSWORD, uniqueIp())).toMatchObject({ ok: true, userId });
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: false });
    expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).passwordChangedAt).not.toBeNull();
    expect(await db.auditEvent.count({ where: { userId, action: "auth.password_changed" } })).toBe(1);

    await drainMail();
    await drainMail();
    expect(notices(email)).toHaveLength(1);
    expect(notices(email)[0]?.text).toContain("every other session was signed out");
    expect(notices(email)[0]?.text).toContain("Firefox 140");
  });

  it("refuses the current password as the new one on its field, and changes, mails and ends nothing", async () => {
    const { email, userId, others } = await signedIn("same");
    expect(await change(PASSWORD, PASSWORD)).toMatchObject({
      ok: false,
      fieldErrors: { newPassword: [SAME_PASSWORD_MESSAGE] },
    });
    for (const other of others) expect(await readSession(other.sessionToken)).not.toBeNull();
    expect(await db.auditEvent.count({ where: { userId, action: "auth.password_changed" } })).toBe(0);
    await drainMail();
    expect(notices(email)).toHaveLength(0);
    // With a wrong current password, it is the wrong answer that is said: the new one is not compared.
    expect(await change("not my password at all", "not my password at all")).toMatchObject({
      fieldErrors: { currentPassword: [expect.stringContaining(WRONG_CURRENT_PASSWORD_MESSAGE)] },
    });
  });

  it("refuses a wrong current password as a wrong answer of this session, and changes nothing", async () => {
    const { email, userId, current, others } = await signedIn("wrong");
    const refused = await change("not my password at all", NEW_PASSWORD);
    const message = `${WRONG_CURRENT_PASSWORD_MESSAGE} 4 more wrong answers sign this session out.`;
    expect(refused).toMatchObject({ ok: false, error: message, fieldErrors: { currentPassword: [message] } });
    expect(JSON.stringify(refused)).not.toContain(NEW_PASSWORD);
    expect(await db.session.findUniqueOrThrow({ where: { id: current.id } })).toMatchObject({ stepUpFailures: 1 });
    expect(await db.authAttempt.count({ where: { kind: "sign_in", email } })).toBe(0);
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });
    for (const other of others) expect(await readSession(other.sessionToken)).not.toBeNull();
    expect(await db.auditEvent.count({ where: { userId, action: "auth.password_changed" } })).toBe(0);
    await drainMail();
    expect(notices(email)).toHaveLength(0);
  });

  it("ends the session at the fifth wrong current password in a row, without locking the email", async () => {
    const { email, userId, current } = await signedIn("five");
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let attempt = 1; attempt < 5; attempt++) {
      expect(await change(`wrong guess number ${attempt}`, NEW_PASSWORD)).toMatchObject({ ok: false });
    }
    expect(await change("wrong guess number 5", NEW_PASSWORD)).toMatchObject({
      ok: false,
      error: expect.stringMatching(/^Five wrong answers: this session is signed out/),
    });
    expect(await readSession(current.sessionToken)).toBeNull();
    expect(await change(PASSWORD, NEW_PASSWORD)).toMatchObject({ ok: false, error: SESSION_REQUIRED_MESSAGE });
    expect(await db.mailMessage.count({ where: { userId, kind: "step_up_failed" } })).toBe(1);
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });
  });

  it("takes the right current password while someone else's failures lock the email and the address", async () => {
    const { email } = await signedIn("attacked");
    const ownerHeaders = request.headers;
    const ownerIp = ownerHeaders.get("x-keyport-peer-ip")!;
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let i = 0; i < 11; i++) await verifyCredentials(email, `wrong guess ${i}`, uniqueIp());
    for (let i = 0; i < 10; i++) await verifyCredentials(`x${i}-${email}`, "wrong guess", ownerIp);
    // Control: both lockouts are on.
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({
      error: expect.stringMatching(/^Too many attempts/),
    });
    expect(await verifyCredentials(`x-${email}`, PASSWORD, ownerIp)).toMatchObject({
      error: expect.stringMatching(/^Too many attempts/),
    });
    request.headers = ownerHeaders;
    expect(await change(PASSWORD, NEW_PASSWORD)).toMatchObject({ ok: true });
  });

  it("refuses a weak new password with zxcvbn's reason, before checking the current one", async () => {
    const { email } = await signedIn("weak");
    expect(await change(PASSWORD, "1234567890")).toMatchObject({
      ok: false,
      fieldErrors: { newPassword: [expect.stringMatching(/frequently used password/)] },
    });
    // Made from the account's own address.
    const local = email.split("@")[0]!;
    expect(checkPasswordStrength(`${local}!`)).toEqual({ ok: true }); // strong for anyone else
    expect(await change(PASSWORD, `${local}!`)).toMatchObject({
      ok: false,
      fieldErrors: { newPassword: [expect.any(String)] },
    });
    expect(await db.authAttempt.count({ where: { kind: "sign_in", email } })).toBe(0);
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });
  });

  it("needs a session", async () => {
    expect(await change(PASSWORD, NEW_PASSWORD)).toMatchObject({ ok: false, error: SESSION_REQUIRED_MESSAGE });
  });
});
