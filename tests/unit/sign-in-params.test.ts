import { describe, expect, it } from "vitest";
import { knownSignInError, normaliseCallbackUrl, safeCallbackPath } from "@/lib/auth/sign-in-params";

describe("safeCallbackPath", () => {
  it.each([
    ["/account", "/account"],
    ["/dashboard/activity?key=key_x#top", "/dashboard/activity?key=key_x#top"],
    ["/%09/evil.com", "/%09/evil.com"],
  ])("keeps the same-site path %s", (input, output) => expect(safeCallbackPath(input)).toBe(output));

  it.each([
    "https://evil.com",
    "//evil.com",
    "/\\evil.com",
    "/\tevil.com",
    "\\\\evil.com",
    "javascript:alert(1)",
    "/.//evil.example",
    "/..//evil.example",
    "/%2e%2e//evil.example",
    "/a/..//evil.example/path?x=1",
    "",
    undefined,
  ])("falls back to the dashboard for %s", (input) => expect(safeCallbackPath(input)).toBe("/dashboard"));
});

describe("knownSignInError", () => {
  it("shows only the sign-in's own messages", () => {
    expect(knownSignInError("The email or password is not right.")).toBe("The email or password is not right.");
    expect(knownSignInError("Too many attempts. Try again at 17:45 UTC.")).toBe(
      "Too many attempts. Try again at 17:45 UTC.",
    );
    expect(knownSignInError("Your account is suspended, call +1 555 0100")).toBe("Sign-in failed. Try again.");
    expect(knownSignInError("CredentialsSignin")).toBeUndefined();
    expect(knownSignInError(undefined)).toBeUndefined();
  });
});

describe("normaliseCallbackUrl", () => {
  const base = "http://localhost:3000";
  it.each([
    ["/account", "http://localhost:3000/account"],
    ["http://localhost:3000/dashboard/activity?key=k", "http://localhost:3000/dashboard/activity?key=k"],
    ["http://x:99999", "http://localhost:3000/dashboard"],
    ["http://127.0.0.1:3917.evil.example", "http://localhost:3000/dashboard"],
    ["https://evil.example/", "http://localhost:3000/dashboard"],
    ["//evil.example", "http://localhost:3000/dashboard"],
    ["", "http://localhost:3000/dashboard"],
  ])("%s becomes %s", (input, output) => expect(normaliseCallbackUrl(input, base)).toBe(output));
});
