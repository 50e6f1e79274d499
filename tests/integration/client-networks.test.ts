// Every per-IP count (the sign-in lockout, the sign-up, reset and report
// limits, the sign-up links per network) counts a client as
// lib/auth/client-ip.ts countedClient says: an IPv4 address by itself, also
// as the dual-stack socket reports it (::ffff:a.b.c.d), and an IPv6 address
// by its /64, since whoever has one address of a /64 has all of them.
import { randomBytes, randomInt } from "node:crypto";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { request } from "../helpers/next-request";
import { createAccount, verifyCredentials } from "@/lib/auth/accounts";
import { requestPasswordResetAction } from "@/lib/web/actions/password";
import { signUpAction } from "@/lib/web/actions/sign-up";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { acceptReport, REPORTS_PER_IP_PER_HOUR } from "@/lib/keys/leak-reports";
import { settleAfterWork } from "../helpers/after-response";
import { drainMail } from "../helpers/mail-job-fixtures";
import { smtpServerForFile } from "../helpers/smtp-server";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("@/lib/after-response", async () => (await import("../helpers/after-response")).afterResponseMock);
// getEnv() caches; here each call reads process.env, so the mail job sees SMTP_URL set in beforeAll.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

const PASSWORD = "a long enough password";
const smtp = smtpServerForFile();
let counter = 0;
const unique = (label: string) => `networks-${label}-${Date.now()}-${counter++}@example.com`;
/** A random group of four hex digits without a leading zero, so it reads back as written. */
const group = () => randomInt(0x1000, 0x10000).toString(16);

/** A fresh /64 from the documentation prefix, and addresses in it that share nothing past the prefix. */
function network64() {
  const prefix = `2001:db8:${group()}:${group()}`;
  return { prefix, address: (i: number) => `${prefix}:${group()}:${i.toString(16)}::${group()}` };
}

/** A fresh IPv4 /24 (in 10/8), as the dual-stack socket in server.mjs reports its addresses. */
function network24() {
  const prefix = `10.${randomBytes(1)[0]}.${randomBytes(1)[0]}`;
  return { plain: (i: number) => `${prefix}.${i}`, mapped: (i: number) => `::ffff:${prefix}.${i}` };
}

function form(fields: Record<string, string>) {
  const data = new FormData();
  for (const [name, value] of Object.entries(fields)) data.set(name, value);
  return data;
}

async function signUp(email: string, ip: string) {
  request.headers = new Headers({ "x-keyport-peer-ip": ip });
  try {
    return await signUpAction(null, form({ email, password: PASSWORD }));
  } catch (error) {
    const redirected = /^NEXT_REDIRECT (.+)$/.exec(String((error as Error).message));
    if (redirected?.[1]) return { redirect: redirected[1] };
    throw error;
  }
}

function askForReset(email: string, ip: string) {
  request.headers = new Headers({ "x-keyport-peer-ip": ip });
  return requestPasswordResetAction(null, form({ email }));
}

const ACCEPTED = { redirect: "/sign-up/check-inbox" };
const SIGN_UP_LIMITED = { ok: false, error: expect.stringMatching(/^Too many sign-ups from your network/) };
const LOCKED = { ok: false, error: expect.stringMatching(/^Too many attempts\. Try again at \d\d:\d\d UTC/) };
const RESET_LIMITED = { ok: false, error: expect.stringMatching(/^Too many reset requests from your network/) };

beforeEach(async () => {
  await settleAfterWork();
  vi.spyOn(console, "warn").mockImplementation(() => {});
});

describe("the sign-up limit", () => {
  it("counts an IPv6 /64 as one client, whatever addresses of it are used", async () => {
    const limit = getEnv().SIGN_UP_LIMIT_PER_HOUR;
    const net = network64();
    for (let i = 0; i < limit; i++) expect(await signUp(unique("v6"), net.address(i))).toEqual(ACCEPTED);
    expect(await signUp(unique("v6"), net.address(limit))).toMatchObject(SIGN_UP_LIMITED);
    // Another /64 (even one next door) is another client.
    expect(await signUp(unique("v6"), network64().address(0))).toEqual(ACCEPTED);
  });

  it("counts IPv4 per address, mapped or not: ::ffff:a.b.c.1 and ::ffff:a.b.c.2 are two clients", async () => {
    const limit = getEnv().SIGN_UP_LIMIT_PER_HOUR;
    const net = network24();
    for (let i = 0; i < limit; i++) expect(await signUp(unique("v4"), net.mapped(1))).toEqual(ACCEPTED);
    expect(await signUp(unique("v4"), net.mapped(1))).toMatchObject(SIGN_UP_LIMITED);
    // The same address unmapped (a proxy's X-Forwarded-For) is the same client.
    expect(await signUp(unique("v4"), net.plain(1))).toMatchObject(SIGN_UP_LIMITED);
    expect(await signUp(unique("v4"), net.mapped(2))).toEqual(ACCEPTED);
  });

  it("keeps the real address on the attempt, beside the client it counted as", async () => {
    const net = network64();
    const email = unique("kept");
    const address = net.address(7);
    await signUp(email, address);
    const attempt = await db.authAttempt.findFirstOrThrow({ where: { kind: "sign_up", email } });
    expect(attempt).toMatchObject({ ip: address, client: `${net.prefix}::/64` });
  });

  it("sends at most three links an hour to one address from one /64", async () => {
    const email = unique("links");
    const net = network64();
    for (let i = 0; i < 4; i++) expect(await signUp(email, net.address(i))).toEqual(ACCEPTED);
    await settleAfterWork();
    await drainMail();
    expect(smtp.to(email)).toHaveLength(3);
    await signUp(email, network64().address(0));
    await settleAfterWork();
    await drainMail();
    expect(smtp.to(email)).toHaveLength(4);
  });
});

describe("the sign-in lockout", () => {
  it("locks a /64 after ten failures from any of its addresses, and no other /64", async () => {
    const owner = unique("owner");
    await createAccount(owner, PASSWORD);
    const net = network64();
    for (let i = 0; i < 10; i++) await verifyCredentials(unique("sprayed"), "a wrong password", net.address(i));
    expect(await verifyCredentials(owner, PASSWORD, net.address(10))).toMatchObject(LOCKED);
    expect(await verifyCredentials(owner, PASSWORD, network64().address(0))).toMatchObject({ ok: true });
  });

  it("locks one IPv4 address, not its neighbour", async () => {
    const owner = unique("owner");
    await createAccount(owner, PASSWORD);
    const net = network24();
    for (let i = 0; i < 10; i++) await verifyCredentials(unique("sprayed"), "a wrong password", net.mapped(1));
    expect(await verifyCredentials(owner, PASSWORD, net.mapped(1))).toMatchObject(LOCKED);
    expect(await verifyCredentials(owner, PASSWORD, net.mapped(2))).toMatchObject({ ok: true });
  });
});

describe("the reset limit", () => {
  it("takes ten requests an hour from a /64, then refuses every address of it", async () => {
    const net = network64();
    for (let i = 0; i < 10; i++) expect(await askForReset(unique("reset"), net.address(i))).toMatchObject({ ok: true });
    expect(await askForReset(unique("reset"), net.address(10))).toMatchObject(RESET_LIMITED);
    expect(await askForReset(unique("reset"), network64().address(0))).toMatchObject({ ok: true });
  });

  it("counts IPv4 per address", async () => {
    const net = network24();
    for (let i = 0; i < 10; i++) expect(await askForReset(unique("reset"), net.mapped(1))).toMatchObject({ ok: true });
    expect(await askForReset(unique("reset"), net.mapped(1))).toMatchObject(RESET_LIMITED);
    expect(await askForReset(unique("reset"), net.mapped(2))).toMatchObject({ ok: true });
  });
});

describe("the report limit", () => {
  it(`accepts ${REPORTS_PER_IP_PER_HOUR} reports an hour from a /64, then refuses every address of it`, async () => {
    const net = network64();
    for (let i = 0; i < REPORTS_PER_IP_PER_HOUR; i++) expect(await acceptReport(net.address(i))).toEqual({ ok: true });
    const refused = await acceptReport(net.address(REPORTS_PER_IP_PER_HOUR));
    expect(refused).toMatchObject({ ok: false, retryAt: expect.any(Date) });
    expect(await acceptReport(network64().address(0))).toEqual({ ok: true });
  });

  it("counts IPv4 per address", async () => {
    const net = network24();
    for (let i = 0; i < REPORTS_PER_IP_PER_HOUR; i++) expect(await acceptReport(net.mapped(1))).toEqual({ ok: true });
    expect(await acceptReport(net.mapped(1))).toMatchObject({ ok: false });
    expect(await acceptReport(net.mapped(2))).toEqual({ ok: true });
  });
});
