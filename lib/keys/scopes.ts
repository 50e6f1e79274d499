// What a key may do, in RFC 6750's word: a scope. Every public route declares
// one (lib/public-api/routes.ts); a key holds All, or a set of these. The set
// is kept this small on purpose: one scope per kind of thing a leaked key
// could do, so a user can reason about it.

export const SCOPES = {
  "catalog:read": "Read the catalog: text models, media models and apps.",
  "models:invoke": "Call the models: chat completions, messages and Gemini generate and stream.",
  "files:write": "Upload files.",
  "generations:write": "Create generations.",
  "generations:read": "Read generations.",
} as const;

export type Scope = keyof typeof SCOPES;

export const SCOPE_NAMES = Object.keys(SCOPES) as Scope[];

/** The scopes a Read only key holds: it can look, never act. */
export const READ_ONLY_SCOPES: readonly Scope[] = ["catalog:read", "generations:read"];

/**
 * What a key holds: every scope (including any a later route adds), or a
 * chosen set. "all" is its own value, not a list of today's scopes, so a key
 * made with All keeps working on a route added next year.
 */
export type KeyScopes = "all" | readonly Scope[];

/** The three choices the create form and the CLI offer. */
export type ScopeChoice = "all" | "read-only" | "custom";

export function isScope(value: string): value is Scope {
  return Object.hasOwn(SCOPES, value);
}

export function allows(scopes: KeyScopes, scope: Scope): boolean {
  return scopes === "all" || scopes.includes(scope);
}

/** Which of the three choices a key's scopes are, for the forms and the list. */
export function scopeChoice(scopes: KeyScopes): ScopeChoice {
  if (scopes === "all") return "all";
  const readOnly = scopes.length === READ_ONLY_SCOPES.length && READ_ONLY_SCOPES.every((s) => scopes.includes(s));
  return readOnly ? "read-only" : "custom";
}

/** In the catalog's order, without repeats: two equal sets always read the same. */
export function normalizeScopes(scopes: Iterable<Scope>): Scope[] {
  const chosen = new Set(scopes);
  return SCOPE_NAMES.filter((scope) => chosen.has(scope));
}

/** How the database keeps a key's scopes: "all", or the scopes separated by spaces (RFC 6750's scope syntax). */
export function serializeScopes(scopes: KeyScopes): string {
  return scopes === "all" ? "all" : normalizeScopes(scopes).join(" ");
}

/**
 * Reads a stored value. A word that is no scope (a scope renamed or removed
 * in a later release) is dropped, so it can never widen what a key may do.
 */
export function parseStoredScopes(stored: string): KeyScopes {
  if (stored === "all") return "all";
  return normalizeScopes(stored.split(" ").filter(isScope));
}

export function describeScopes(scopes: KeyScopes): string {
  if (scopes === "all") return "All";
  if (scopeChoice(scopes) === "read-only") return "Read only";
  return scopes.length === 0 ? "None" : scopes.join(", ");
}
