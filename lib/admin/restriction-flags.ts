import { parseAllowlist } from "../keys/ip-allowlist";
import { MAX_RATE_LIMIT, type KeyRestrictions } from "../keys/restrictions";
import { isScope, normalizeScopes, READ_ONLY_SCOPES, SCOPE_NAMES, type KeyScopes } from "../keys/scopes";
import { UsageError, type Flags } from "./command-support";

// The restriction flags of key:create and key:update. Each refusal names its
// flag and says what would be accepted, since the operator has no form to
// show the choices.

const SCOPE_CHOICES = `use all, read-only or a comma-separated list of: ${SCOPE_NAMES.join(", ")}`;

/** "all", "read-only", or scopes separated by commas. */
export function parseScopesFlag(value: string): KeyScopes {
  const text = value.trim();
  if (text === "all") return "all";
  if (text === "read-only") return [...READ_ONLY_SCOPES];
  const names = text
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
  if (names.length === 0) throw new UsageError(`--scopes: the list is empty; ${SCOPE_CHOICES}.`);
  const unknown = names.find((name) => !isScope(name));
  if (unknown !== undefined) throw new UsageError(`--scopes: “${unknown}” is not a scope; ${SCOPE_CHOICES}.`);
  return normalizeScopes(names.filter(isScope));
}

/** Addresses and CIDR ranges separated by commas, or "none" for any address. */
export function parseAllowIpFlag(value: string): string[] | null {
  if (value.trim() === "none") return null;
  const result = parseAllowlist(value);
  if (!result.ok) throw new UsageError(`--allow-ip: ${result.error}`);
  // An empty value is more likely a script's empty variable than a wish to allow everyone.
  if (result.entries === null) {
    throw new UsageError("--allow-ip: the list is empty; give addresses or CIDR ranges separated by commas, or none.");
  }
  return result.entries;
}

/** Requests per minute, or "default" for the environment's. */
export function parseRateLimitFlag(value: string): number | null {
  const text = value.trim();
  if (text === "default") return null;
  const limit = /^\d{1,7}$/.test(text) ? Number(text) : Number.NaN;
  if (!(limit >= 1 && limit <= MAX_RATE_LIMIT)) {
    throw new UsageError(
      `--rate-limit: “${text}” is not a whole number from 1 to ${MAX_RATE_LIMIT} (requests per minute), or default.`,
    );
  }
  return limit;
}

/** Only the restrictions whose flags were given; the caller keeps the rest. */
export function restrictionFlags(flags: Flags): Partial<KeyRestrictions> {
  const changes: Partial<KeyRestrictions> = {};
  if (flags.scopes !== undefined) changes.scopes = parseScopesFlag(flags.scopes);
  if (flags["allow-ip"] !== undefined) changes.allowedIps = parseAllowIpFlag(flags["allow-ip"]);
  if (flags["rate-limit"] !== undefined) changes.rateLimit = parseRateLimitFlag(flags["rate-limit"]);
  return changes;
}
