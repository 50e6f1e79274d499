import { describe, expect, it } from "vitest";
import { newTeamSlugSchema, proposeSlug, SLUG_MAX, teamSlugSchema } from "@/lib/teams/slug";

describe("a team's slug", () => {
  it("is proposed from the name: lowercase letters and digits, hyphens between, starting with a letter", () => {
    expect(proposeSlug("Payments Platform")).toBe("payments-platform");
    expect(proposeSlug("  Équipe Données — Prod!  ")).toBe("equipe-donnees-prod");
    expect(proposeSlug("2024 Launch crew")).toBe("launch-crew");
    expect(proposeSlug("Personal stuff")).toBe("team-personal-stuff"); // personal- is for personal teams
    expect(proposeSlug("Personal")).toBe("team-personal");
    expect(proposeSlug("a".repeat(64))).toBe("a".repeat(SLUG_MAX));
    expect(proposeSlug(`${"a".repeat(SLUG_MAX - 1)} tail`)).toBe("a".repeat(SLUG_MAX - 1)); // a trailing hyphen is cut
  });

  it("is not proposed when nothing usable is left", () => {
    expect(proposeSlug("東京チーム")).toBeNull();
    expect(proposeSlug("123")).toBeNull();
    expect(proposeSlug("x")).toBeNull();
  });

  it("takes 3 to 40 of a-z, 0-9 and -, starting with a letter", () => {
    for (const good of ["abc", "team-1", "a".repeat(40), "personal-0123456789ab"]) {
      expect(teamSlugSchema.safeParse(good).success, good).toBe(true);
    }
    for (const bad of ["ab", "a".repeat(41), "1abc", "-abc", "Abc", "ab_c", "ab c", "abç", ""]) {
      expect(teamSlugSchema.safeParse(bad).success, bad).toBe(false);
    }
  });

  it("for a new team, refuses the dashboard's own words and the personal prefix", () => {
    for (const reserved of ["keys", "activity", "account", "new", "teams", "members", "personal", "personal-abc"]) {
      const parsed = newTeamSlugSchema.safeParse(reserved);
      expect(parsed.success, reserved).toBe(false);
    }
    expect(newTeamSlugSchema.safeParse("payments").success).toBe(true);
  });
});
