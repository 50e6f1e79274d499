// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header or Bearer credential counts, valid or not, and so does
// any key-shaped token in a credential header whatever its scheme or encoding
// (lib/keys/key-readings.ts): the rule is about what a request carries, not
// only about the two header forms the public API accepts.

import { someReading } from "../keys/key-readings";

const KEY_SHAPED = /sk_(?:dev|prod)_[0-9A-Za-z]{8,}/;
// A value is read whole: cutting it short let a key hide behind padding
// (`Basic <9,000 x "A"> sk_dev_...`). server.mjs accepts at most 16 KiB of
// headers (Node's default), so this bound is never met through it; a longer
// value handed in some other way is refused rather than read in part.
export const MAX_READ = 64 * 1024;

/** Whether a credential header's value holds something shaped like one of our keys, under any reading. */
export function holdsKeyShapedToken(value: string): boolean {
  return value.length > MAX_READ || someReading(value, (text) => KEY_SHAPED.test(text));
}

// Headers that carry credentials, by name: Authorization, Proxy-Authorization
// and whatever a client names for a key, token, secret, password or
// credential (X-Auth-Token, Api-Secret, X-Key, Private-Key...). Not Cookie: a sibling site can plant a cookie
// in the owner's browser (cookie tossing), and one holding key-shaped text
// would then lock the owner out of the portal, revoking included.
const CREDENTIAL_HEADER = /auth|key|token|secret|passw|credential/i;

export function carriesApiKey(headers: Headers): boolean {
  if (headers.has("x-api-key")) return true;
  const authorization = headers.get("authorization");
  if (authorization !== null && /^\s*bearer\b/i.test(authorization)) return true;
  for (const [name, value] of headers) {
    if (CREDENTIAL_HEADER.test(name) && holdsKeyShapedToken(value)) return true;
  }
  return false;
}
