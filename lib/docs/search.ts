// The docs' search: a small index built at build time (served as
// /docs/search-index.json) and a match function the search box runs in the
// browser. Pages, routes and error codes are all entries.
export interface SearchEntry {
  title: string;
  href: string;
  /** What kind of thing it is, shown beside the result. */
  kind: "page" | "route" | "error";
  /** Words that should find it besides the title. */
  text: string;
}

const words = (text: string) =>
  text
    .toLowerCase()
    .split(/[^a-z0-9_.{}/-]+/)
    .filter(Boolean);

/** Entries holding every word of the query; title matches first. At most `limit`. */
export function searchDocs(index: SearchEntry[], query: string, limit = 8): SearchEntry[] {
  const terms = words(query);
  if (terms.length === 0) return [];
  const scored = index.flatMap((entry) => {
    const title = entry.title.toLowerCase();
    const haystack = `${title} ${entry.text.toLowerCase()} ${entry.href}`;
    if (!terms.every((term) => haystack.includes(term))) return [];
    const score = terms.filter((term) => title.includes(term)).length * 2 + (title.startsWith(terms[0]!) ? 1 : 0);
    return [{ entry, score }];
  });
  return scored
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
    .map(({ entry }) => entry);
}
