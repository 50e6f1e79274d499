// The key list's search (lib/keys/queries.ts searchWhere). Apart from the rest of the query string's schema, which
// reads the key format (node:zlib), because the browser's search field needs this too.
import { KEY_PREFIX } from "./key-shaped";

/** Longer than any label (64), key id or shown part of a secret: a longer search is cut to it. */
export const KEY_SEARCH_MAX = 100;

export const WHOLE_KEY_IN_SEARCH =
  "That is a whole secret key: search by its label, its id or the part of it the list shows (sk_…_Ab3x…9fQz).";

const WHOLE_KEY = new RegExp(`${KEY_PREFIX}[0-9A-Za-z]{38}`);

/**
 * Whether the text holds something shaped like a whole key. Typed into the search, it would go into the address,
 * the browser's history and any proxy's log, so the browser stops it before it is sent; the page checks the
 * checksum too (containsApiKey) for one that comes in a link.
 */
export function looksLikeWholeKey(text: string): boolean {
  return WHOLE_KEY.test(text);
}
