// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header or Bearer credential counts, valid or not, and so does
// any key-shaped token in any header but Cookie, Referer and User-Agent, whatever its scheme or encoding
// (lib/keys/key-readings.ts): the rule is about what a request carries, not
// only about the two header forms the public API accepts.

import { containsApiKey } from "../keys/key-in-text";
import { someReading, utf8Runs } from "../keys/key-readings";

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

// What can stand inside a key without a reader seeing it: control characters (NUL, NEL; not white space), format
// characters (zero-width ones, bidirectional marks, the byte order mark), the default-ignorable ones (variation
// selectors, tags, the Hangul filler) and blanks that draw nothing (a braille blank). Classes rather than a list: a
// second attack review passed eleven characters a list of seven missed. Taken out before looking for key-shaped text.
const UNSEEN = /[\0-\x08\x0E-\x1F\x7F-\x9F\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}]+/gu;
// White space inside a key (a tab, a no-break space) is taken out too, but then only a real key counts (its
// checksum): "ask_dev_ team about it" without its spaces is key-shaped, and refusing it locked a header out (the
// third attack review).
const WHITE = /[\s\p{Zs}]+/gu;

/** Compatibility characters folded and accents dropped (a full-width ｓｋ＿…, a combining accent after each letter). */
const folded = (text: string) => (/[^\x00-\x7F]/.test(text) ? text.normalize("NFKD").replace(/\p{M}+/gu, "") : text);

/** Key-shaped once what cannot be seen is taken out, or a real key once white space is too; as sent, or as UTF-8. */
function keyShaped(text: string): boolean {
  const forms = new Set([text, folded(text)]);
  const utf8 = utf8Runs(text);
  if (utf8 !== text) forms.add(utf8).add(folded(utf8));
  for (const form of forms) {
    const seen = form.replace(UNSEEN, "");
    if (KEY_SHAPED.test(form) || KEY_SHAPED.test(seen) || containsApiKey(seen.replace(WHITE, ""))) return true;
  }
  return false;
}

/** Whether a header's value holds something shaped like one of our keys, under any reading. */
export function holdsKeyShapedToken(value: string): boolean {
  if (value.length > MAX_READ) return true;
  const read = (form: string) => someReading(form, keyShaped, { budget: READING_BUDGET, shortest: KEY_SHAPED_LENGTH });
  // The value read as UTF-8 is read in turn (its escapes and encodings), as the value is.
  const utf8 = utf8Runs(value);
  return read(value) || (utf8 !== value && read(utf8));
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
