// The ways a server's decoders might read a value, for the checks that ask
// whether a value holds one of our keys: as sent; unescaped (percent, \u
// and \x escapes, HTML character references); base64-decoded (whole,
// without a leading scheme, token by token, a JWT's parts, and from wherever
// the base64 of "sk_" starts, at any alignment); and hex-decoded from
// wherever the hex of "sk_" starts. Each is read again, three deep. Decoding is as lenient as any decoder a
// server might use (extra padding, stray characters, base64url, UTF-16),
// since a value any of them would read as a key must count.
//
// Decodings only: no list of what a sender might do to a key could be whole
// (docs/security.md). Values we would store get two more (lib/keys/key-in-text.ts).
// No imports: proxy.ts reads headers with this before anything else runs.

const ROUNDS = 3;

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

const ENTITIES: Record<string, string> = { lowbar: "_", UnderBar: "_", amp: "&", quot: '"', apos: "'" };

function codePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

/** Percent, backslash and HTML escapes undone in one pass, each where it stands. */
function unescaped(value: string): string {
  return value.replace(
    /%([0-9A-Fa-f]{2})|\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})|&#[xX]([0-9A-Fa-f]{1,6});?|&#([0-9]{1,7});?|&(lowbar|UnderBar|amp|quot|apos);/g,
    (_, percent?: string, braced?: string, u?: string, x?: string, hexRef?: string, decRef?: string, name?: string) => {
      if (percent) return String.fromCharCode(parseInt(percent, 16));
      const hex = braced ?? u ?? x ?? hexRef;
      if (hex) return codePoint(parseInt(hex, 16));
      if (decRef) return codePoint(parseInt(decRef, 10));
      return ENTITIES[name!]!;
    },
  );
}

// Where the base64 of "sk_" sits in a longer base64 text, for each of the
// three byte offsets it can start at: the characters that depend on those
// three bytes alone, and how far before them the 4-character group starts.
const SK_BASE64 = [0, 1, 2].map((offset) => {
  const encoded = btoa("\0".repeat(offset) + "sk_");
  const start = Math.ceil((8 * offset) / 6);
  return { text: encoded.slice(start, Math.floor((8 * (offset + 3)) / 6)), back: start };
});
// A key is 45 characters: 64 base64 characters hold it after up to 3 bytes before it.
const WINDOW = 64;

/**
 * Base64 read from every place "sk_" could start, whatever came before it:
 * a key encoded after a prefix that is not a multiple of three bytes, or
 * text glued before the base64, is not on the 4-character grid of the whole.
 */
function base64FromKeyPrefix(value: string): string[] {
  const clean = value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .replace(/[^A-Za-z0-9+/]/g, "");
  const found: string[] = [];
  for (const { text, back } of SK_BASE64) {
    for (let at = clean.indexOf(text); at !== -1; at = clean.indexOf(text, at + 1)) {
      if (at >= back) found.push(base64Decoded(clean.slice(at - back, at - back + WINDOW)));
    }
  }
  return found;
}

/** Hex read from every place the hex of "sk_" starts (either case, any alignment): a key's 45 bytes. */
function hexFromKeyPrefix(value: string): string[] {
  const found: string[] = [];
  // Zero-width, so a match starting inside another is found too (a decoy prefix cannot hide the key after it).
  for (const match of value.matchAll(/(?=(736b5f[0-9a-f]{84}))/gi)) {
    found.push(match[1]!.replace(/../g, (pair) => String.fromCharCode(parseInt(pair, 16))));
  }
  return found;
}

/**
 * One round of readings of a value, without the value itself: those to read
 * again, and those read from where "sk_" starts, already plain text there,
 * which are only looked at.
 */
function readings(value: string): { again: string[]; plain: string[] } {
  const withoutScheme = value.replace(/^\s*[A-Za-z][\w-]*\s+/, "");
  // "." splits a JWT's parts, each base64url on its own grid.
  const tokens = value.split(/[\s,;:="'.]+/).filter((token) => token.length >= 12);
  // Often the same text twice (a value without a scheme, or of one token): decoded once.
  const encoded = new Set([value.replace(/\s+/g, ""), withoutScheme.replace(/\s+/g, ""), ...tokens]);
  return {
    again: [unescaped(value), ...[...encoded].map(base64Decoded)].filter((reading) => reading && reading !== value),
    plain: [...base64FromKeyPrefix(value), ...hexFromKeyPrefix(value)],
  };
}

/**
 * Whether `test` holds for the value or any reading of it. Linear in the
 * value's length: each reading is no longer than the text it was read from,
 * and the per-token readings split it into disjoint parts, so one round's
 * readings to read again add up to at most 3.25 times the round before, and
 * three rounds to about 50 times the value; those read from a key prefix are
 * 48 characters each, at most one per place the prefix starts, and are not
 * read again. No reading is dropped to save time (a cap on their number let
 * 70 junk tokens push a key's token out of view); `test` must be linear too.
 */
export function someReading(value: string, test: (text: string) => boolean): boolean {
  const seen = new Set([value]);
  let current = [value];
  for (let round = 0; round <= ROUNDS && current.length > 0; round++) {
    if (current.some(test)) return true;
    if (round === ROUNDS) break;
    const next: string[] = [];
    for (const text of current) {
      const { again, plain } = readings(text);
      if (plain.some(test)) return true;
      // A reading already looked at adds nothing (unescaping plain text gives the text back).
      for (const reading of again) {
        if (seen.has(reading)) continue;
        seen.add(reading);
        next.push(reading);
      }
    }
    current = next;
  }
  return false;
}
