// The device cookie on its own (lib/auth/device-cookie.ts): what it accepts,
// and every way an attacker might make or reuse one that it refuses.
import { describe, expect, it } from "vitest";
import { DEVICE_COOKIE_LIFETIME_MS, deviceIdFor, mintDeviceCookie } from "@/lib/auth/device-cookie";

const SECRET = "a-test-secret-that-is-long-enough-0123";
const EMAIL = "owner@example.com";

describe("device cookie", () => {
  it("names a device for the email it was made for, by a digest that is no part of the cookie", () => {
    const cookie = mintDeviceCookie(EMAIL, SECRET);
    const id = deviceIdFor(cookie, EMAIL, SECRET);
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const [, nonce, , signature] = cookie.split(".");
    expect(id).not.toContain(nonce);
    expect(id).not.toContain(signature);
    // Each sign-in makes a new device cookie, so two browsers are two devices.
    expect(deviceIdFor(mintDeviceCookie(EMAIL, SECRET), EMAIL, SECRET)).not.toBe(id);
  });

  it("is worth nothing for another email: an attacker's own cookie cannot lift someone else's lockout", () => {
    const attackers = mintDeviceCookie("attacker@example.com", SECRET);
    expect(deviceIdFor(attackers, EMAIL, SECRET)).toBeNull();
    expect(deviceIdFor(mintDeviceCookie(EMAIL, SECRET), "Owner@example.com", SECRET)).toBeNull();
  });

  it("cannot be made without AUTH_SECRET, edited, or kept past its lifetime", () => {
    const now = Date.now();
    const cookie = mintDeviceCookie(EMAIL, SECRET, now);
    expect(deviceIdFor(mintDeviceCookie(EMAIL, "another-secret-that-is-long-enough-012"), EMAIL, SECRET)).toBeNull();
    const [version, nonce, issuedAt, signature] = cookie.split(".");
    const flip = (s: string) => (s[0] === "A" ? "B" : "A") + s.slice(1);
    for (const edited of [
      [version, flip(nonce!), issuedAt, signature],
      [version, nonce, (parseInt(issuedAt!, 36) + 1).toString(36), signature],
      [version, nonce, issuedAt, flip(signature!)],
      ["2", nonce, issuedAt, signature],
      [version, nonce, issuedAt, signature, "x"],
      [version, nonce, issuedAt],
    ]) {
      expect(deviceIdFor(edited.join("."), EMAIL, SECRET), edited.join(".")).toBeNull();
    }
    expect(deviceIdFor(cookie, EMAIL, SECRET, now + DEVICE_COOKIE_LIFETIME_MS - 1000)).not.toBeNull();
    expect(deviceIdFor(cookie, EMAIL, SECRET, now + DEVICE_COOKIE_LIFETIME_MS)).toBeNull();
    // Issued in the future (a clock set forward to outlive the lifetime): refused.
    expect(deviceIdFor(mintDeviceCookie(EMAIL, SECRET, now + 3_600_000), EMAIL, SECRET, now)).toBeNull();
    for (const junk of [undefined, "", "1", "1...", "x".repeat(500)])
      expect(deviceIdFor(junk, EMAIL, SECRET)).toBeNull();
  });
});
