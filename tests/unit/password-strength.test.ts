import { describe, expect, it } from "vitest";
import { newPasswordSchema, newPasswordSchemaFor, signUpSchema } from "@/lib/auth/credentials.schema";
import { checkPasswordStrength } from "@/lib/auth/password-strength";
import { PASSWORD } from "../e2e/helpers";

describe("new passwords", () => {
  it("refuse 1234567890 and say why", () => {
    const result = newPasswordSchema.safeParse("1234567890");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toMatch(/frequently used password/);
  });

  it("refuse one made from the account's email, which alone would pass", () => {
    expect(checkPasswordStrength("alice.smith2026").ok).toBe(true);
    const weak = newPasswordSchemaFor(["alice.smith@example.com"]).safeParse("alice.smith2026");
    expect(weak.error?.issues[0]?.message).toMatch(/personal/);
    const signUp = signUpSchema.safeParse({ email: "alice.smith@example.com", password: "alice.smith2026" });
    expect(signUp.error?.issues.map((issue) => issue.path)).toEqual([["password"]]);
  });

  it("say only the length when a password is too short", () => {
    expect(newPasswordSchema.safeParse("12345").error?.issues.map((issue) => issue.message)).toEqual([
      "Use at least 10 characters.",
    ]);
  });

  it("accept the passwords the tests use", () => {
    for (const password of [PASSWORD, "a long enough password", "quiet lantern orbit"]) {
      expect(newPasswordSchema.safeParse(password).success, password).toBe(true);
    }
  });
});
