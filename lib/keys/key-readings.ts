// The ways a server's decoders might read a value, for the checks that ask
// whether a value holds one of our keys: as sent, percent-decoded, and
// base64-decoded (whole, without a leading scheme, and token by token),
// each of those read again, three deep. Decoding is as lenient as any
// decoder a server might use (extra padding, stray characters, base64url,
// UTF-16), since a value any of them would read as a key must count.
// No imports: proxy.ts reads headers with this before anything else runs.

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

/** One round of readings of a value, without the value itself. */
function readings(value: string): string[] {
  const withoutScheme = value.replace(/^\s*[A-Za-z][\w-]*\s+/, "");
  const tokens = value.split(/[\s,;:="']+/).filter((token) => token.length >= 12);
  // Often the same text twice (a value without a scheme, or of one token): decoded once.
  const encoded = new Set([value.replace(/\s+/g, ""), withoutScheme.replace(/\s+/g, ""), ...tokens]);
  return [percentDecoded(value), ...[...encoded].map(base64Decoded)].filter((reading) => reading && reading !== value);
}

/**
 * Whether `test` holds for the value or any reading of it. Linear in the
 * value's length: each reading is no longer than the text it was read from,
 * and the per-token readings split it into disjoint parts, so one round's
 * readings add up to at most 3.25 times the round before, and three rounds
 * to about 50 times the value. No reading is dropped to save time (a cap on
 * their number let 70 junk tokens push a key's token out of view); `test`
 * must be linear too.
 */
export function someReading(value: string, test: (text: string) => boolean): boolean {
  const seen = new Set([value]);
  let current = [value];
  for (let round = 0; round <= ROUNDS && current.length > 0; round++) {
    if (current.some(test)) return true;
    // A reading already looked at adds nothing (percent-decoding plain text gives the text back).
    current = round === ROUNDS ? [] : current.flatMap(readings).filter((text) => !seen.has(text) && seen.add(text));
  }
  return false;
}
