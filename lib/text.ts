import { holdsApiKey, SEPARATORS } from "./keys/key-in-text";
import { redactKeyShaped } from "./keys/key-shaped";

// Characters that never belong in a name a person reads: C0 and C1 controls,
// and the bidirectional overrides and isolates that can make one name read
// as another ("invoice\u202Egpj.exe" shows as "invoiceexe.jpg").
export const CONTROL_CHARACTERS = /[\u0000-\u001F\u007F-\u009F]/;
export const BIDI_CONTROLS = /[\u202A-\u202E\u2066-\u2069]/;

/**
 * Characters that show nothing, or break a line where a reader sees one: format characters (Cf: zero-width
 * spaces and joiners, bidirectional marks, tag characters) and the default-ignorable ones (Hangul fillers,
 * variation selectors but the emoji pair, soft hyphen), and the line and paragraph separators. In a name other
 * people read they make two names look alike, or hide one (the second attack review of teams).
 */
export const INVISIBLE_OR_BREAKING = /(?![\uFE0E\uFE0F])[\p{Cf}\p{Default_Ignorable_Code_Point}\u2028\u2029]/u;

const SHOWS_NOTHING = new RegExp(`(?:\\s|\u2800|\u{1D159}|${INVISIBLE_OR_BREAKING.source})`, "gu");

/**
 * Whether the text, once what shows nothing is taken out (white space, zero-width and other format characters,
 * fillers, a blank braille cell), is empty: a name like that would have no visible name and no visible link.
 */
export function showsNothing(text: string): boolean {
  return text.replace(SHOWS_NOTHING, "") === "";
}

/**
 * A MIME encoded word (`=?UTF-8?B?...?=`): mail software leaves an all-ASCII subject as it is, and the reader's mail
 * program then decodes this into whatever it holds, past every check on the text (the second attack review).
 */
export const ENCODED_WORD = /=\?[^?\s]*\?[BbQq]\?/;

const UNSAFE = /[\u0000-\u001F\u007F-\u009F\u202A-\u202E\u2066-\u2069]/g;

/** The value without those characters. */
export function withoutUnsafe(value: string): string {
  return value.replace(UNSAFE, "");
}

/** A client-sent name made safe to store and show: those characters removed, trimmed, cut to `max`. */
export function cleanName(value: string, max: number): string {
  return withoutUnsafe(value).trim().slice(0, max);
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * A header's text as its sender wrote it. Node hands header bytes over one
 * character per byte (Latin-1), so "東京" sent in UTF-8 arrives as "æ±äº¬";
 * bytes that read as UTF-8 are read so, anything else stays as it came. Done
 * before control characters are removed: UTF-8's continuation bytes are C1
 * controls when read one per byte.
 */
export function utf8HeaderText(value: string): string {
  if (!/[\u0080-\u00FF]/.test(value) || /[^\u0000-\u00FF]/.test(value)) return value;
  try {
    return UTF8.decode(Uint8Array.from(value, (char) => char.charCodeAt(0)));
  } catch {
    return value;
  }
}

/**
 * A user agent as any table keeps it (sessions, the activity log, the request
 * log): read as UTF-8 where its bytes are (utf8HeaderText), control and text-direction characters removed (they would garble the
 * log and the CSV), then anything shaped like one of our keys, even cut short,
 * redacted (a client that puts its key in its user agent must not find it
 * stored and shown again), cut to `max` characters (the request log keeps
 * 256); null when nothing is left. Removing comes first: a byte such as 0x85
 * (which HTTP allows in a header) inside a key hid it from the redaction and
 * was then removed, leaving the whole key stored.
 */
export function cleanUserAgent(raw: string | null | undefined, max = 512): string | null {
  if (!raw) return null;
  const cleaned = cleanName(redactKeyShaped(withoutUnsafe(utf8HeaderText(raw))), max);
  // A key still there encoded (base64, hex, escaped: an attack review stored them) cannot be cut out: the whole
  // user agent goes. Only text with an escape or a long run of base64 or hex (once separators are taken out: a
  // key in chunks) is read again, so the request path pays a regular expression for an ordinary one.
  if (ENCODED_RUN.test(cleaned.replace(SEPARATORS, "")) && holdsApiKey(cleaned)) return WITHHELD_USER_AGENT;
  return cleaned || null;
}

const ENCODED_RUN = /[%\\&=]|[A-Za-z0-9+/_-]{24,}/;

/** What is kept of a user agent that held an API key in some encoding. */
export const WITHHELD_USER_AGENT = "(withheld: it held an API key)";
