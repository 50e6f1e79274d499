// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header or Bearer credential counts, valid or not, and so does
// any key-shaped token in any header but Cookie, Referer and User-Agent, whatever its scheme or encoding
// (lib/keys/key-readings.ts): the rule is about what a request carries, not
// only about the two header forms the public API accepts.

import { someReading } from "../keys/key-readings";

const KEY_SHAPED = /sk_(?:dev|prod)_[0-9A-Za-z]{8,}/;
/** The shortest text KEY_SHAPED matches. */
const KEY_SHAPED_LENGTH = "sk_dev_".length + 8;
// A value is read whole: cutting it short let a key hide behind padding
// (`Basic <9,000 x "A"> sk_dev_...`). server.mjs accepts at most 16 KiB of
// headers (Node's default), so this bound is never met through it; a longer
// value handed in some other way is refused rather than read in part.
export const MAX_READ = 64 * 1024;

// The reading's budget, in characters per character of the value, each
// reading counted as its length and READING_COST more: ordinary headers need
// 8 to 14 (measured: an 8 KiB JWT, an Envoy client-certificate header, a
// cookie-like list); only a value built to have many readings needs more, and
// it is refused unread as a value too long to read is.
export const READING_BUDGET = 24;

// What can stand inside a key without a reader seeing it: white space (a tab, a no-break space), control characters
// (NUL, NEL), format characters (zero-width ones, bidirectional marks, the byte order mark), the default-ignorable
// ones (variation selectors, tags, the Hangul filler) and blanks that draw nothing (a braille blank). Classes rather
// than a list: a second attack review passed eleven characters a list of seven missed.
const HIDING = /[\s\p{Cc}\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]+/gu;

/**
 * A text's characters, each a byte, read as UTF-8, when it has bytes above
 * ASCII: what a server that decodes headers (or what it base64-decoded) as
 * UTF-8 reads. Node hands a header's bytes over as Latin-1 characters, so a
 * zero-width space sent as UTF-8 reaches us as "\u00E2\u0080\u008B", which
 * nothing takes out (an attack review hid a key that way). Null otherwise.
 */
function asUtf8(text: string): string | null {
  if (!/[\u0080-\u00FF]/.test(text) || /[^\u0000-\u00FF]/.test(text)) return null;
  return new TextDecoder().decode(Uint8Array.from(text, (c) => c.charCodeAt(0)));
}

/** Key-shaped as it is, or once what can hide inside a key is taken out; as sent, or read as UTF-8. */
function keyShaped(text: string): boolean {
  const utf8 = asUtf8(text);
  return [text, ...(utf8 === null ? [] : [utf8])].some(
    (form) => KEY_SHAPED.test(form) || KEY_SHAPED.test(form.replace(HIDING, "")),
  );
}

/** Whether a header's value holds something shaped like one of our keys, under any reading. */
export function holdsKeyShapedToken(value: string): boolean {
  if (value.length > MAX_READ) return true;
  const read = (form: string) => someReading(form, keyShaped, { budget: READING_BUDGET, shortest: KEY_SHAPED_LENGTH });
  // The value read as UTF-8 is read in turn (its escapes and encodings), as the value is.
  const utf8 = asUtf8(value);
  return read(value) || (utf8 !== null && read(utf8));
}

// Every header is read but three. Two a third party can put in the owner's
// browser's requests: Cookie (a sibling site can plant one: cookie tossing)
// and Referer (a page can send its whole address with a link to us); one
// holding key-shaped text would lock the owner out of the portal, revoking
// included. And User-Agent, which names a client and carries no credential:
// what it says is stored with a key in it redacted or withheld
// (cleanUserAgent in lib/text.ts). A list of credential header names was
// tried first: an attack review found names it missed (X-Pass, X-Creds, X-Sk...).
const UNREAD_HEADERS = new Set(["cookie", "referer", "user-agent"]);

export function carriesApiKey(headers: Headers): boolean {
  if (headers.has("x-api-key")) return true;
  const authorization = headers.get("authorization");
  if (authorization !== null && /^\s*bearer\b/i.test(authorization)) return true;
  for (const [name, value] of headers) {
    // The name too: "X-<key>: 1" carries the key as well as a value would (an attack review sent it).
    if (holdsKeyShapedToken(name)) return true;
    if (!UNREAD_HEADERS.has(name) && holdsKeyShapedToken(value)) return true;
  }
  return false;
}
