// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header or Bearer credential counts, valid or not, and so does
// any key-shaped token in a credential header whatever its scheme or encoding:
// the rule is about what a request carries, not only about the two header
// forms the public API accepts. Decoding is as lenient as the decoders a
// server might use (extra padding, stray characters, UTF-16, one encoding
// inside another), since a value any of them would read as a key must count.

const KEY_SHAPED = /sk_(?:dev|prod)_[0-9A-Za-z]{8,}/;
// A value is read whole: cutting it short let a key hide behind padding
// (`Basic <9,000 x "A"> sk_dev_...`). server.mjs accepts at most 16 KiB of
// headers (Node's default), so this bound is never met through it; a longer
// value handed in some other way is refused rather than read in part.
export const MAX_READ = 64 * 1024;
const ROUNDS = 3;

function percentDecoded(value: string): string {
  return value.replace(/%([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

function base64Decoded(value: string): string {
  let clean = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .replace(/[^A-Za-z0-9+/]/g, "");
  if (clean.length < 12) return "";
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  try {
    // UTF-16 text decodes to characters with NULs between them.
    return atob(clean + "=".repeat((4 - (clean.length % 4)) % 4)).replace(/\0/g, "");
  } catch {
    return "";
  }
}

/** Every reading of a value: as sent, percent-decoded, base64-decoded (whole, without its scheme, per token). */
function readings(value: string): string[] {
  const withoutScheme = value.replace(/^\s*[A-Za-z][\w-]*\s+/, "");
  const tokens = value.split(/[\s,;:="']+/).filter((token) => token.length >= 12);
  // Often the same text twice (a value without a scheme, or of one token): decoded once.
  const encoded = new Set([value.replace(/\s+/g, ""), withoutScheme.replace(/\s+/g, ""), ...tokens]);
  return [percentDecoded(value), ...[...encoded].map(base64Decoded)].filter((reading) => reading && reading !== value);
}

/**
 * Whether a credential header's value holds something shaped like one of our
 * keys, under any reading. Linear in the value's length: each reading is no
 * longer than the text it was read from, and the per-token readings split it
 * into disjoint parts, so one round's readings add up to at most 3.25 times
 * the round before, and three rounds to about 50 times the value. No reading
 * is dropped to save time (a cap on their number let 70 decoy tokens push the
 * key's token out of view), and every pattern here is linear on any input.
 */
export function holdsKeyShapedToken(value: string): boolean {
  if (value.length > MAX_READ) return true;
  const seen = new Set([value]);
  let current = [value];
  for (let round = 0; round <= ROUNDS && current.length > 0; round++) {
    if (current.some((text) => KEY_SHAPED.test(text))) return true;
    // A reading already looked at adds nothing (percent-decoding plain text gives the text back).
    current = round === ROUNDS ? [] : current.flatMap(readings).filter((text) => !seen.has(text) && seen.add(text));
  }
  return false;
}

// Headers that carry credentials, by name: Authorization, Proxy-Authorization
// and whatever a client names for a key, token, secret or credential
// (X-Auth-Token, Api-Secret...). Not Cookie: a sibling site can plant a cookie
// in the owner's browser (cookie tossing), and one holding key-shaped text
// would then lock the owner out of the portal, revoking included.
const CREDENTIAL_HEADER = /auth|api[-_]?key|token|secret|credential/i;

export function carriesApiKey(headers: Headers): boolean {
  if (headers.has("x-api-key")) return true;
  const authorization = headers.get("authorization");
  if (authorization !== null && /^\s*bearer\b/i.test(authorization)) return true;
  for (const [name, value] of headers) {
    if (CREDENTIAL_HEADER.test(name) && holdsKeyShapedToken(value)) return true;
  }
  return false;
}
