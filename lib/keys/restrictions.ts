import { describeScopes, parseStoredScopes, serializeScopes, type KeyScopes } from "./scopes";
import { allowlistWithin, displayEntry, parseStoredAllowlist, serializeAllowlist } from "./ip-allowlist";

// What a key may do beyond being valid: its scopes, the addresses it may be
// used from, and its own rate limit. One shape for the forms, the CLI, the
// lifecycle, the gate and the audit log; the columns' encoding stays here.

export interface KeyRestrictions {
  scopes: KeyScopes;
  /** Canonical CIDR ranges (lib/keys/ip-allowlist.ts); null for any address. */
  allowedIps: string[] | null;
  /** Requests per minute; null for the environment's default. */
  rateLimit: number | null;
}

/** The highest per-key limit anyone may set (the operator, above the environment's default). */
export const MAX_RATE_LIMIT = 1_000_000;

export const UNRESTRICTED: KeyRestrictions = { scopes: "all", allowedIps: null, rateLimit: null };

/** The columns of an ApiKey row that hold its restrictions. */
export interface StoredRestrictions {
  scopes: string;
  allowedIps: string | null;
  rateLimit: number | null;
}

export const restrictionsSelect = { scopes: true, allowedIps: true, rateLimit: true } as const;

export function toStoredRestrictions(restrictions: KeyRestrictions): StoredRestrictions {
  return {
    scopes: serializeScopes(restrictions.scopes),
    allowedIps: serializeAllowlist(restrictions.allowedIps),
    rateLimit: restrictions.rateLimit,
  };
}

export function fromStoredRestrictions(row: StoredRestrictions): KeyRestrictions {
  return {
    scopes: parseStoredScopes(row.scopes),
    allowedIps: parseStoredAllowlist(row.allowedIps),
    rateLimit: row.rateLimit,
  };
}

/** For the audit log and the CLI: plain JSON a person can read, before and after a change. */
export function describeRestrictions(restrictions: KeyRestrictions) {
  return {
    scopes: restrictions.scopes === "all" ? "all" : [...restrictions.scopes],
    allowed_ips: restrictions.allowedIps?.map(displayEntry) ?? "any",
    rate_limit_per_minute: restrictions.rateLimit ?? "default",
  };
}

export function sameRestrictions(a: KeyRestrictions, b: KeyRestrictions): boolean {
  return JSON.stringify(toStoredRestrictions(a)) === JSON.stringify(toStoredRestrictions(b));
}

/** One line for the key list, or null for a key with no restrictions: "Read only · 2 IP ranges · 30 per minute". */
export function accessSummary(restrictions: KeyRestrictions): string | null {
  const parts: string[] = [];
  if (restrictions.scopes !== "all") parts.push(describeScopes(restrictions.scopes));
  if (restrictions.allowedIps) {
    const count = restrictions.allowedIps.length;
    parts.push(
      count === 1 ? `IP allowlist: ${displayEntry(restrictions.allowedIps[0]!)}` : `IP allowlist: ${count} ranges`,
    );
  }
  if (restrictions.rateLimit !== null) parts.push(`${restrictions.rateLimit} per minute`);
  return parts.length > 0 ? parts.join(" · ") : null;
}

/**
 * Whether `next` lets a key do nothing that `current` does not: its scopes a subset, its addresses inside the current
 * allowlist, its own rate limit no higher (a limit of the environment's default counts as that default).
 */
export function restrictionsWithin(next: KeyRestrictions, current: KeyRestrictions, defaultLimit: number): boolean {
  const limit = (restrictions: KeyRestrictions) => restrictions.rateLimit ?? defaultLimit;
  return (
    scopesWithin(next.scopes, current.scopes) &&
    allowlistWithin(next.allowedIps, current.allowedIps) &&
    limit(next) <= limit(current)
  );
}

/** Whether the scopes `next` grants are all among those `current` grants. */
export function scopesWithin(next: KeyScopes, current: KeyScopes): boolean {
  return current === "all" || (next !== "all" && next.every((scope) => current.includes(scope)));
}
