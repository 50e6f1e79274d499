// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header or Bearer credential counts, valid or not, and so does
// any key-shaped token in a credential header whatever its scheme or encoding:
// the rule is about what a request carries, not only about the two header
// forms the public API accepts. Decoding is as lenient as the decoders a
// server might use (extra padding, stray characters, UTF-16, one encoding
// inside another), since a value any of them would read as a key must count.

const KEY_SHAPED = /sk_(?:dev|prod)_[0-9A-Za-z]{8,}/;
// Longer values are not credentials anyone sends; they are looked at up to here.
const MAX_INSPECTED = 8 * 1024;
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
  return [
    percentDecoded(value),
    base64Decoded(value.replace(/\s+/g, "")),
    base64Decoded(withoutScheme.replace(/\s+/g, "")),
    ...tokens.map(base64Decoded),
  ].filter((reading) => reading && reading !== value);
}

/** Whether a credential header's value holds something shaped like one of our keys, under any reading. */
export function holdsKeyShapedToken(value: string): boolean {
  let current = [value.slice(0, MAX_INSPECTED)];
  for (let round = 0; round <= ROUNDS; round++) {
    if (current.some((text) => KEY_SHAPED.test(text))) return true;
    if (round === ROUNDS) break;
    current = current.flatMap(readings).slice(0, 64);
    if (current.length === 0) break;
  }
  return false;
}

export function carriesApiKey(headers: Headers): boolean {
  if (headers.has("x-api-key")) return true;
  const authorization = headers.get("authorization");
  if (authorization !== null && /^\s*bearer\b/i.test(authorization)) return true;
  for (const [name, value] of headers) {
    const credential = name === "authorization" || name === "proxy-authorization" || /api[-_]?key/i.test(name);
    if (credential && holdsKeyShapedToken(value)) return true;
  }
  return false;
}
