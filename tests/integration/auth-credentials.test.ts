import { afterEach, describe, expect, it, vi } from "vitest";
import { createAccount, INVALID_CREDENTIALS_MESSAGE, verifyCredentials } from "@/lib/auth/accounts";
import {
  DUMMY_PASSWORD_HASH,
  dummyPasswordHash,
  MAX_CONCURRENT,
  MAX_WAITING,
  PasswordCheckBusy,
  passwordHasher,
} from "@/lib/auth/password";
import { db } from "@/lib/db";

const PASSWORD = "a long enough password";
let counter = 0;
const unique = (label: string) => `${label}-${Date.now()}-${counter++}@example.com`;
const uniqueIp = () => `198.51.100.${(counter++ % 250) + 1}-${Date.now()}`;

afterEach(() => vi.restoreAllMocks());

describe("signing in", () => {
  it("answers an unknown email and a wrong password alike, verifying the dummy hash for the unknown one", async () => {
    const email = unique("known");
    const ip = uniqueIp();
    expect(await createAccount(email, PASSWORD)).toMatchObject({ ok: true });
    const verify = vi.spyOn(passwordHasher, "verify");

    const wrongPassword = await verifyCredentials(email, "not the password", ip);
    const unknownEmail = await verifyCredentials(unique("unknown"), PASSWORD, ip);

    expect(wrongPassword).toEqual({ ok: false, error: INVALID_CREDENTIALS_MESSAGE });
    expect(unknownEmail).toEqual(wrongPassword);
    expect(verify).toHaveBeenCalledTimes(2);
    expect(verify.mock.calls[1]?.[0]).toBe(dummyPasswordHash());
    expect(verify.mock.calls[0]?.[0]).not.toBe(dummyPasswordHash());
    // The dummy costs what a real hash costs: the same parameters as the account's.
    const user = await db.user.findUniqueOrThrow({ where: { email } });
    expect(dummyPasswordHash().split("$")[3]).toBe(user.passwordHash!.split("$")[3]);
  });

  it("stores an Argon2id hash with OWASP's parameters, never the password; the suite's cheap ones only in test mode", async () => {
    // The suite runs in test mode on a test database: cheap parameters.
    const cheap = unique("cheap-hash");
    await createAccount(cheap, PASSWORD);
    const cheapUser = await db.user.findUniqueOrThrow({ where: { email: cheap } });
    expect(cheapUser.passwordHash).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    // Without test mode, the same database gets OWASP's.
    vi.stubEnv("KEYPORT_TEST_MODE", "");
    try {
      const email = unique("hash");
      await createAccount(email, PASSWORD);
      const user = await db.user.findUniqueOrThrow({ where: { email } });
      expect(user.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(user.passwordHash).not.toContain(PASSWORD);
      expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true, email });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("replaces a hash made with weaker parameters at the next sign-in, and leaves a current one alone", async () => {
    const email = unique("upgrade");
    const hashOf = async () => (await db.user.findUniqueOrThrow({ where: { email } })).passwordHash!;
    await createAccount(email, PASSWORD);
    const cheap = await hashOf();
    expect(cheap).toMatch(/^\$argon2id\$v=19\$m=64,t=1,p=1\$/);
    // In test mode the cheap parameters are the current ones: signing in keeps the hash.
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true, email });
    expect(await hashOf()).toBe(cheap);
    // The same database without test mode: the sign-in that proves the password replaces the hash.
    vi.stubEnv("KEYPORT_TEST_MODE", "");
    try {
      expect(await verifyCredentials(email, "not the password", uniqueIp())).toMatchObject({ ok: false });
      expect(await hashOf()).toBe(cheap);
      expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true, email });
      const upgraded = await hashOf();
      expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true, email });
      expect(await hashOf()).toBe(upgraded);
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("refuses the 11th attempt for one email within 15 minutes, even with the right password, and logs it", async () => {
    const email = unique("locked");
    await createAccount(email, PASSWORD);
    const warnings = vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let attempt = 0; attempt < 10; attempt++) {
      // A different IP each time: the email alone triggers the lockout.
      expect(await verifyCredentials(email, `wrong ${attempt}`, uniqueIp())).toMatchObject({ ok: false });
    }
    const eleventh = await verifyCredentials(email, PASSWORD, uniqueIp());
    expect(eleventh.ok).toBe(false);
    expect(!eleventh.ok && eleventh.error).toMatch(/^Too many attempts\. Try again at \d\d:\d\d UTC\.$/);
    const logged = warnings.mock.calls.map(([line]) => JSON.parse(String(line)) as { event: string });
    expect(logged.map((entry) => entry.event)).toEqual(
      expect.arrayContaining(["auth.sign_in.lockout_started", "auth.sign_in.locked_out"]),
    );
  });

  it("lets at most 10 of a burst of concurrent guesses be checked", async () => {
    const email = unique("burst");
    await createAccount(email, PASSWORD);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    const verify = vi.spyOn(passwordHasher, "verify");
    const results = await Promise.all(
      Array.from({ length: 30 }, (_, i) => verifyCredentials(email, `guess ${i}`, uniqueIp())),
    );
    const checked = results.filter((r) => !r.ok && r.error === INVALID_CREDENTIALS_MESSAGE);
    expect(checked.length).toBeLessThanOrEqual(10);
    expect(verify.mock.calls.length).toBe(checked.length);
    expect(results.filter((r) => !r.ok && /Try again at/.test(r.error)).length).toBe(30 - checked.length);
  });

  it("refuses after 10 failures from one IP, whatever the email", async () => {
    const email = unique("victim");
    const ip = uniqueIp();
    await createAccount(email, PASSWORD);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let attempt = 0; attempt < 10; attempt++) await verifyCredentials(unique("spray"), PASSWORD, ip);
    const result = await verifyCredentials(email, PASSWORD, ip);
    expect(!result.ok && result.error).toMatch(/Try again at/);
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });
  });

  it("lets sign-in work again once the failures leave the 15-minute window", async () => {
    const email = unique("window");
    await createAccount(email, PASSWORD);
    vi.spyOn(console, "warn").mockImplementation(() => {});
    for (let attempt = 0; attempt < 10; attempt++) await verifyCredentials(email, "wrong", uniqueIp());
    await db.authAttempt.updateMany({ where: { email }, data: { createdAt: new Date(Date.now() - 16 * 60 * 1000) } });
    expect(await verifyCredentials(email, PASSWORD, uniqueIp())).toMatchObject({ ok: true });
  });
});

describe("the queue of password checks", () => {
  it("holds at most 4 running and 32 waiting; the rest are refused at once, before any check finishes", async () => {
    const settled: string[] = [];
    const checks = Array.from({ length: MAX_CONCURRENT + MAX_WAITING + 10 }, (_, i) =>
      passwordHasher.verify(DUMMY_PASSWORD_HASH, `guess ${i}`).then(
        () => settled.push("checked"),
        (error: unknown) => settled.push(error instanceof PasswordCheckBusy ? "busy" : "other"),
      ),
    );
    // While the queue is full, a sign-in is refused before it counts as an attempt.
    const email = unique("busy");
    await expect(verifyCredentials(email, PASSWORD, uniqueIp())).rejects.toBeInstanceOf(PasswordCheckBusy);
    await Promise.all(checks);
    expect(settled.filter((s) => s === "busy")).toHaveLength(10);
    expect(settled.filter((s) => s === "checked")).toHaveLength(MAX_CONCURRENT + MAX_WAITING);
    expect(settled.slice(0, 10)).toEqual(Array(10).fill("busy"));
    expect(await db.authAttempt.count({ where: { email } })).toBe(0);
    // Once it drains, checks run again.
    expect(passwordHasher.saturated()).toBe(false);
    await expect(passwordHasher.verify(DUMMY_PASSWORD_HASH, "again")).resolves.toBe(false);
  });
});
