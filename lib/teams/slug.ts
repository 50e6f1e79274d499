import { z } from "zod";

// A team's slug: chosen at creation, unique, never changed, and the part of
// every team page's URL that names the team. Pure (no database, nothing of
// Node): the create-team form proposes the slug with the same function.

export const SLUG_MIN = 3;
export const SLUG_MAX = 40;
const SLUG_PATTERN = /^[a-z][a-z0-9-]*$/;

/** A slug as a URL or a form names it (teams made before these rules, the personal ones, fit them too). */
export const teamSlugSchema = z
  .string({ error: "Choose a team." })
  .min(SLUG_MIN, `A team's address is ${SLUG_MIN} to ${SLUG_MAX} characters.`)
  .max(SLUG_MAX, `A team's address is ${SLUG_MIN} to ${SLUG_MAX} characters.`)
  .regex(SLUG_PATTERN, "Use lowercase letters a to z, digits and hyphens, starting with a letter.");

/**
 * Slugs no team can have: the dashboard's own pages sit beside the team
 * segment (/dashboard/keys/..., /dashboard/activity, /dashboard/teams/new), and
 * personal teams' slugs start "personal-".
 */
export const RESERVED_SLUGS: readonly string[] = [
  "keys",
  "activity",
  "account",
  "new",
  "teams",
  "members",
  "settings",
  // A team called "personal" would read as one's personal team, and its -2, -3 would start "personal-".
  "personal",
];

/** A slug a person may choose for a new team: the pattern, and not reserved. */
export const newTeamSlugSchema = teamSlugSchema
  .refine((slug) => !RESERVED_SLUGS.includes(slug), "That address is reserved: choose another.")
  .refine((slug) => !slug.startsWith("personal-"), "Addresses starting “personal-” are for personal teams.");

export const TEAM_NAME_MAX = 64;

/**
 * The slug proposed for a name: its letters and digits in lowercase (accents
 * dropped), runs of anything else as one hyphen, starting with a letter, cut
 * to the maximum. Never from an email: a name is what the person typed as the
 * team's name. Null when nothing usable is left ("東京", "123"): the person
 * then types one.
 */
export function proposeSlug(name: string): string | null {
  const ascii = name
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  const slug = ascii
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^[^a-z]+/, "")
    .slice(0, SLUG_MAX)
    .replace(/-+$/, "");
  if (slug.length < SLUG_MIN) return null;
  // Personal teams' slugs start "personal-": a name that would too gets "team-" in front, here, where the
  // create-team form proposes it too (the attack review of teams found "Personal stuff" made personal-stuff-2).
  return slug === "personal" || slug.startsWith("personal-")
    ? `team-${slug}`.slice(0, SLUG_MAX).replace(/-+$/, "")
    : slug;
}
