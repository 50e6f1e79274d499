import { describe, expect, it } from "vitest";
import { createKeySchema, updateRestrictionsSchema } from "@/lib/keys/key.schema";
import { accessSummary, fromStoredRestrictions, toStoredRestrictions } from "@/lib/keys/restrictions";
import { allows, parseStoredScopes, READ_ONLY_SCOPES, SCOPE_NAMES } from "@/lib/keys/scopes";
import { publicRoutes } from "@/lib/public-api/routes";

const base = { label: "restricted", environment: "dev", expiry: "never" };

describe("the restriction fields of the key forms", () => {
  it("default to All, any address and the environment's limit", () => {
    const parsed = createKeySchema.parse(base);
    expect(parsed.restrictions).toEqual({ scopes: "all", allowedIps: null, rateLimit: null });
  });

  it("read the three choices: All, Read only, and the ticked scopes", () => {
    expect(createKeySchema.parse({ ...base, access: "read-only" }).restrictions.scopes).toEqual(READ_ONLY_SCOPES);
    const custom = createKeySchema.parse({
      ...base,
      access: "custom",
      "scope:files:write": "on",
      "scope:catalog:read": "on",
    });
    // The catalog's order, whatever the form's.
    expect(custom.restrictions.scopes).toEqual(["catalog:read", "files:write"]);
  });

  it("refuse a chosen set with no scope, a bad allowlist entry and a limit that is not a whole number, on their fields", () => {
    const fieldOf = (input: object) => {
      const result = createKeySchema.safeParse({ ...base, ...input });
      return result.success ? null : result.error.issues.map((issue) => [issue.path.join("."), issue.message]);
    };
    expect(fieldOf({ access: "custom" })).toEqual([["scopes", "Choose at least one scope, or choose All."]]);
    expect(fieldOf({ allowedIps: "10.0.0.1/24" })).toEqual([
      ["allowedIps", "“10.0.0.1/24” has bits set after the prefix: did you mean 10.0.0.0/24?"],
    ]);
    expect(fieldOf({ rateLimit: "1.5" })?.[0]?.[0]).toBe("rateLimit");
    expect(fieldOf({ rateLimit: "0" })?.[0]?.[0]).toBe("rateLimit");
    expect(fieldOf({ access: "everything" })?.[0]?.[0]).toBe("access");
  });

  it("an edit must send every field: a field left out would otherwise clear the key's allowlist or limit", () => {
    const missing = (input: object) => {
      const result = updateRestrictionsSchema.safeParse({ keyId: "key_0123456789abcdef", ...input });
      return result.success ? [] : result.error.issues.map((issue) => issue.path.join("."));
    };
    expect(missing({ allowedIps: "", rateLimit: "" })).toEqual(["access"]);
    expect(missing({ access: "read-only" })).toEqual(["allowedIps", "rateLimit"]);
    expect(missing({ access: "read-only", allowedIps: "", rateLimit: "" })).toEqual([]);
  });

  it("leave the highest limit to the lifecycle, which knows the environment (a large number is still a number)", () => {
    expect(createKeySchema.parse({ ...base, rateLimit: "99999999" }).restrictions.rateLimit).toBe(99_999_999);
    expect(createKeySchema.safeParse({ ...base, rateLimit: "1234567890" }).success).toBe(false);
  });

  it("the edit form takes the same fields for a key id", () => {
    const parsed = updateRestrictionsSchema.parse({
      keyId: "key_0123456789abcdef",
      access: "all",
      allowedIps: "2001:db8::/32\n203.0.113.7",
      rateLimit: "30",
    });
    expect(parsed.restrictions).toEqual({
      scopes: "all",
      allowedIps: ["2001:db8::/32", "203.0.113.7/32"],
      rateLimit: 30,
    });
  });
});

describe("stored restrictions", () => {
  it("round-trip through the columns", () => {
    const restrictions = { scopes: ["models:invoke" as const], allowedIps: ["203.0.113.0/24"], rateLimit: 5 };
    expect(fromStoredRestrictions(toStoredRestrictions(restrictions))).toEqual(restrictions);
    expect(toStoredRestrictions({ scopes: "all", allowedIps: null, rateLimit: null })).toEqual({
      scopes: "all",
      allowedIps: null,
      rateLimit: null,
    });
  });

  it("a stored word that is no scope (renamed in a later release) never widens a key", () => {
    expect(parseStoredScopes("catalog:read admin:everything")).toEqual(["catalog:read"]);
    expect(parseStoredScopes("")).toEqual([]);
    expect(allows(parseStoredScopes(""), "catalog:read")).toBe(false);
  });

  it("summarise a restricted key in one line, and an unrestricted one not at all", () => {
    expect(accessSummary({ scopes: "all", allowedIps: null, rateLimit: null })).toBeNull();
    expect(accessSummary({ scopes: [...READ_ONLY_SCOPES], allowedIps: ["203.0.113.7/32"], rateLimit: 30 })).toBe(
      "Read only · IP allowlist: 203.0.113.7 · 30 per minute",
    );
  });
});

it("every route's scope is one of the five, and every scope has a route", () => {
  for (const route of publicRoutes) expect(SCOPE_NAMES).toContain(route.scope);
  for (const scope of SCOPE_NAMES) expect(publicRoutes.some((route) => route.scope === scope)).toBe(true);
});
