// A real key inside a longer value: a file named `backup-<key>.txt`, an
// idempotency key built from one. Looked for at every position, as
// key-shaped text is (lib/keys/key-shaped.ts), and only a token that passes
// the checksum counts, so `sk_dev_notes2024.txt` is not one.
import { KEY_ENVIRONMENTS, parseApiKey } from "./format";
import { someReading, utf8Runs, utf8Unescaped } from "./key-readings";
import { KEY_PREFIX } from "./key-shaped";

// Zero-width, so matchAll tries every position; at most 45 characters read at each.
const FULL_KEY_AT = new RegExp(`(?=(${KEY_PREFIX}[0-9A-Za-z]{38}))`, "g");

/** What may stand between the pieces of a key or of its encoding. */
// Format characters (Cf) and default-ignorable ones show nothing; U+2800 (a blank braille cell) shows as a space;
// U+1D159 (a musical null notehead) draws nothing either (the second attack review of team policies).
export const SEPARATORS = /[\s.,:;/\\|\p{Cf}\p{Default_Ignorable_Code_Point}\u2800\u{1D159}-]+/gu;

/** The length of the shortest real key ("sk_dev_" and 38 characters). */
const SHORTEST_KEY = "sk_dev_".length + 38;

/** Whether a real key (format and checksum, as `parseApiKey`) sits anywhere in the text. */
export function containsApiKey(text: string): boolean {
  for (const match of text.matchAll(FULL_KEY_AT)) if (parseApiKey(match[1]!)) return true;
  return false;
}

// What is left of a key written with anything but letters and digits between its characters ("sk_dev_AB+CD…",
// "(s)(k)_…", a key split by "&", "*", "~" or "。"): "sk", the environment and 38 characters, each candidate put
// back together and checked. Zero-width, so every position is tried.
const BARE_KEY_AT = new RegExp(`(?=sk(${KEY_ENVIRONMENTS.join("|")})([0-9A-Za-z]{38}))`, "g");

/** Whether a real key is in the text once everything but letters and digits is taken out of it. */
function containsBareKey(text: string): boolean {
  const bare = text.replace(/[^0-9A-Za-z]+/g, "");
  for (const match of bare.matchAll(BARE_KEY_AT)) if (parseApiKey(`sk_${match[1]}_${match[2]}`)) return true;
  return false;
}

/**
 * Every real key written out in the text, each once, in the order found: what
 * someone pastes from a `.env` file, a JSON config or a log line
 * (`KEYPORT_KEY=sk_dev_...`, `"sk_dev_..."`). Plain text only: a key hidden by
 * an encoding is not one a reporter copied from where it leaked.
 */
export function apiKeysIn(text: string): string[] {
  const found = new Set<string>();
  for (const match of text.matchAll(FULL_KEY_AT)) if (parseApiKey(match[1]!)) found.add(match[1]!);
  return [...found];
}

/**
 * Whether a real key sits in the text as sent or under any reading a decoder
 * might give (lib/keys/key-readings.ts); and, since these values are short
 * and we would keep them, also with its white space taken out (a key split in
 * two) or read backwards. A value someone transformed further is not found.
 */
export function holdsApiKey(text: string): boolean {
  // Taken out: white space, characters that show nothing, and what people put between the pieces of something
  // long (a key split by dashes, dots, commas, slashes; base64 chunks joined by them, or by underscores). Also from
  // the text with its percent escapes undone first, since an address keeps them (`s%20k_dev_…`, an attack review).
  const unescaped = utf8Unescaped(text);
  // And folded: compatibility characters to their plain forms and accents dropped (NFKD without marks: a full-width
  // ｓｋ＿ｄｅｖ＿…, ⒮⒦…, or a combining accent after each character is the key; attack reviews stored each); only
  // text outside ASCII changes, so most values are read as before.
  const fold = (value: string) => value.normalize("NFKD").replace(/\p{M}+/gu, "");
  const forms = [...new Set([text, unescaped].flatMap((value) => [value, fold(value)]))].flatMap((value) => {
    const joined = value.replace(SEPARATORS, "");
    return [value, joined, joined.replace(/_/g, ""), [...joined].reverse().join("")];
  });
  // Folded and read backwards at every reading too, not only as sent: base64 of a full-width or a reversed key hid
  // it (the third attack review).
  const holds = (reading: string) =>
    containsApiKey(reading) ||
    containsBareKey(reading) ||
    (/[^\x00-\x7F]/.test(reading) && containsBareKey(fold(utf8Runs(reading)))) ||
    containsBareKey([...reading].reverse().join(""));
  return forms.some((form) => someReading(form, holds, { shortest: SHORTEST_KEY }));
}
