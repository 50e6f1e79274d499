// Keys inside longer text: a file named `backup-<key>.txt`, an idempotency
// key built from one, a user agent that carries one. A key can sit anywhere,
// right after other letters; and one key-shaped run can end in the "sk" that
// starts the next ("sk_dev_AAAAAAsk_dev_<key>"), so a match is looked for at
// every position, never only after the end of the previous one (a global
// regular expression that consumes its matches would step over that key).
// Every pattern here is linear: a lookahead at a position reads at most one
// run of letters and digits, and a run holds at most one key prefix.
import { KEY_ENVIRONMENTS, parseApiKey } from "./format";
import { someReading } from "./key-readings";

const PREFIX = `sk_(${KEY_ENVIRONMENTS.join("|")})_`;
const HAS_PREFIX = new RegExp(PREFIX);
// Zero-width, so matchAll tries every position.
const FULL_KEY_AT = new RegExp(`(?=(${PREFIX}[0-9A-Za-z]{38}))`, "g");
// Shaped like a key, even cut short: what user agents have redacted.
const KEY_SHAPED_AT = new RegExp(`(?=(${PREFIX}[0-9A-Za-z]{6,}))`, "g");

/** Whether the text holds our key prefix anywhere (the URL's rule: even a fake key does not belong there). */
export function hasKeyPrefix(text: string): boolean {
  return HAS_PREFIX.test(text);
}

/** Whether a real key (format and checksum, as `parseApiKey`) sits anywhere in the text. */
export function containsApiKey(text: string): boolean {
  for (const match of text.matchAll(FULL_KEY_AT)) if (parseApiKey(match[1]!)) return true;
  return false;
}

/** The text with every key-shaped run, overlapping ones merged, replaced by `sk_<env>_[redacted]`. */
export function redactKeyShaped(text: string): string {
  let redacted = "";
  let end = 0;
  for (const match of text.matchAll(KEY_SHAPED_AT)) {
    const start = match.index;
    const stop = start + match[1]!.length;
    if (stop <= end) continue;
    // A run that starts inside the one just redacted extends it.
    redacted += start < end ? "" : `${text.slice(end, start)}sk_${match[2]}_[redacted]`;
    end = stop;
  }
  return redacted + text.slice(end);
}

/** Whether a real key sits in the text as sent or under any reading a decoder might give (lib/keys/key-readings.ts). */
export function holdsApiKey(text: string): boolean {
  return someReading(text, containsApiKey);
}
