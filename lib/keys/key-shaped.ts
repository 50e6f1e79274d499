// Key-shaped text inside longer text: a user agent that carries a key, a URL
// parameter. A key can sit anywhere, right after other letters; and one
// key-shaped run can end in the "sk" that starts the next
// ("sk_dev_AAAAAAsk_dev_<key>"), so a match is looked for at every position,
// never only after the end of the previous one (a global regular expression
// that consumes its matches would step over that key). Every pattern here is
// linear: a lookahead at a position reads at most one run of letters and
// digits, and a run follows at most one key prefix. No imports (format.ts
// needs node:zlib): client components read lib/text.ts, which uses this.

/** Our keys' prefix; tests/unit/key-in-text.test.ts holds it to KEY_ENVIRONMENTS. */
export const KEY_PREFIX = "sk_(dev|prod)_";

const HAS_PREFIX = new RegExp(KEY_PREFIX);
// Zero-width, so matchAll tries every position. Even cut short: what user agents have redacted.
const KEY_SHAPED_AT = new RegExp(`(?=(${KEY_PREFIX}[0-9A-Za-z]{6,}))`, "g");

/** Whether the text holds our key prefix anywhere (the URL's rule: even a fake key does not belong there). */
export function hasKeyPrefix(text: string): boolean {
  return HAS_PREFIX.test(text);
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
