// The ways a server's decoders might read a value, for the checks that ask
// whether a value holds one of our keys: as sent; unescaped (percent, %u, \u
// and \x escapes, quoted-printable, HTML character references);
// base64-decoded (whole, without a leading scheme, token by token, a JWT's
// parts, each from any of the four places on the 4-character grid, so text
// glued before the base64 cannot shift it out of view); and hex-decoded (every
// run of hex digits, from either digit). Each is read again, three deep.
// Decoding is as lenient as any decoder a server might use (extra padding,
// stray characters, base64url, UTF-16), since a value any of them would read
// as a key must count.
//
// Decodings only: no list of what a sender might do to a key could be whole
// (docs/security.md). Values we would store get two more (lib/keys/key-in-text.ts).
// No imports: proxy.ts reads headers with this before anything else runs.

const ROUNDS = 3;
/** What one reading costs beyond its length, in characters (someReading's budget). */
export const READING_COST = 64;

/** The base64 alphabet's characters of a value, base64url's mapped to base64's. */
function base64Characters(value: string): string {
  return value
    .replace(/-/g, "+")
    .replace(/_/g, "/")
    .replace(/[^A-Za-z0-9+/]/g, "");
}

function base64Decoded(clean: string): string {
  if (clean.length < 12) return "";
  if (clean.length % 4 === 1) clean = clean.slice(0, -1);
  try {
    // UTF-16 text decodes to characters with NULs between them.
    return atob(clean + "=".repeat((4 - (clean.length % 4)) % 4)).replace(/\0/g, "");
  } catch {
    return "";
  }
}

/** The text read as base64 from each of the four places on the grid: shifted text is still read. */
function base64Readings(value: string): string[] {
  const clean = base64Characters(value);
  return [0, 1, 2, 3].map((shift) => base64Decoded(clean.slice(shift)));
}

/**
 * Every run of at least 24 hex digits, decoded from its first digit and from
 * its second; and every run of 12 or more hex pairs with separators between
 * them (73:6b:5f..., 73 6b 5f..., 0x73,0x6b..., as dumps and code print them).
 */
function hexReadings(value: string): string[] {
  const found: string[] = [];
  for (const [pairs] of value.matchAll(/(?:(?:0x)?[0-9A-Fa-f]{2}[:\s,.;-]+){11,}(?:0x)?[0-9A-Fa-f]{2}/g)) {
    const digits = pairs.replace(/0x|[:\s,.;-]/g, "");
    found.push(digits.replace(/../g, (pair) => String.fromCharCode(parseInt(pair, 16))));
  }
  for (const [run] of value.matchAll(/[0-9A-Fa-f]{24,}/g)) {
    for (const shift of [0, 1]) {
      const digits = run.slice(shift, shift + ((run.length - shift) & ~1));
      found.push(digits.replace(/../g, (pair) => String.fromCharCode(parseInt(pair, 16))).replace(/\0/g, ""));
    }
  }
  return found;
}

const ENTITIES: Record<string, string> = { lowbar: "_", UnderBar: "_", amp: "&", quot: '"', apos: "'" };

function codePoint(code: number): string {
  return code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

/** Characters that show nothing (soft hyphen, zero-width ones, the byte order mark): a key can hide between them. */
const INVISIBLE = /[\u00AD\u200B-\u200F\u2060\uFEFF]/g;

/**
 * Runs of percent escapes that spell UTF-8 decoded as UTF-8 (`%E2%80%8B` is one zero-width space, not three
 * Latin-1 characters); a run that is not UTF-8 is left for the byte-by-byte pass. An attack review hid a key in a
 * reported address as `sk%E2%80%8B_dev_…`.
 */
export function utf8Unescaped(value: string): string {
  return value.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return run;
    }
  });
}

/**
 * The text with each run of characters from U+0080 to U+00FF read as the
 * UTF-8 bytes they are: Node hands a header's bytes over as Latin-1
 * characters (and atob its bytes), so a zero-width space sent as UTF-8 arrives as
 * "\u00E2\u0080\u008B", which nothing would take out (an attack review hid a
 * key that way). Run by run, so a character above U+00FF elsewhere in the
 * value (from an escape) does not stop the reading (the third review).
 */
export function utf8Runs(text: string): string {
  return text.replace(/[\u0080-\u00FF]+/g, (run) =>
    new TextDecoder().decode(Uint8Array.from(run, (c) => c.charCodeAt(0))),
  );
}

/** Percent, %u, backslash, quoted-printable and HTML escapes undone in one pass, each where it stands. */
function unescaped(value: string): string {
  return utf8Unescaped(value)
    .replace(INVISIBLE, "")
    .replace(
      /%u([0-9A-Fa-f]{4})|%([0-9A-Fa-f]{2})|\\u\{([0-9A-Fa-f]{1,6})\}|\\u([0-9A-Fa-f]{4})|\\x([0-9A-Fa-f]{2})|=([0-9A-F]{2})|&#[xX]([0-9A-Fa-f]{1,6});?|&#([0-9]{1,7});?|&(lowbar|UnderBar|amp|quot|apos);/g,
      (_, ...groups: (string | undefined)[]) => {
        const [percentU, percent, braced, u, x, quoted, hexRef, decRef, name] = groups;
        const hex = percentU ?? percent ?? braced ?? u ?? x ?? quoted ?? hexRef;
        if (hex) return codePoint(parseInt(hex, 16));
        if (decRef) return codePoint(parseInt(decRef, 10));
        return ENTITIES[name!]!;
      },
    )
    .replace(INVISIBLE, "");
}

/** Whether a reading looks like text (nine in ten characters printable ASCII): only text is read again. */
function looksLikeText(text: string): boolean {
  let printable = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if ((code >= 0x20 && code < 0x7f) || code === 0x09 || code === 0x0a || code === 0x0d) printable++;
  }
  return printable * 10 >= text.length * 9;
}

/** One round of readings of a value, without the value itself. */
function readings(value: string): string[] {
  const withoutScheme = value.replace(/^\s*[A-Za-z][\w-]*\s+/, "");
  // "." splits a JWT's parts, each base64url on its own grid.
  const tokens = value.split(/[\s,;:="'.]+/).filter((token) => token.length >= 12);
  // Often the same text twice (a value without a scheme, or of one token): decoded once.
  const encoded = new Set([value.replace(/\s+/g, ""), withoutScheme.replace(/\s+/g, ""), ...tokens]);
  return [unescaped(value), ...[...encoded].flatMap(base64Readings), ...hexReadings(value)].filter(
    (reading) => reading && reading !== value,
  );
}

/**
 * Whether `test` holds for the value or any reading of it, three deep. Each
 * reading is no longer than the text it was read from, so the work is linear
 * in the value's length. A reading that is not text (random bytes: base64
 * read off its grid, or a token that was never base64) is looked at but not
 * read again, so a value's readings add up to a few times its length; nor
 * is one shorter than `shortest`, the least `test` can find in. With
 * `budget`, the readings may cost at most that many times the value's length
 * (plus 4 KiB; a reading costs its length and READING_COST): a value that
 * needs more is treated as holding a key, unread, as a value too long to read
 * is (lib/auth/api-key-headers.ts). No reading is ever skipped to save time
 * otherwise (a cap on their number let 70 junk tokens push a key's token out
 * of view); `test` must be linear too.
 */
export function someReading(
  value: string,
  test: (text: string) => boolean,
  { budget = Infinity, shortest = 0 }: { budget?: number; shortest?: number } = {},
): boolean {
  const seen = new Set([value]);
  let current = [value];
  let left = budget * value.length + 4096;
  for (let round = 0; round <= ROUNDS && current.length > 0; round++) {
    if (current.some(test)) return true;
    if (round === ROUNDS) break;
    const next: string[] = [];
    for (const text of current) {
      for (const reading of readings(text)) {
        // No reading is longer than what it was read from: one shorter than what `test` looks for holds nothing.
        if (reading.length < shortest || seen.has(reading)) continue;
        seen.add(reading);
        // Each reading costs its length and a fixed share for the work of making and testing it, which is what
        // many short readings cost (16 KiB of distinct 12-character tokens took 27 ms before it was counted).
        left -= reading.length + READING_COST;
        if (left < 0) return true;
        if (looksLikeText(reading)) next.push(reading);
        else if (test(reading)) return true;
      }
    }
    current = next;
  }
  return false;
}
