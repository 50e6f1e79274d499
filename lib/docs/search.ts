// The docs' search: an index of every page, every section of every page (its
// heading and its text, code included), every route and every error code,
// built at build time from the prerendered pages (scripts/docs-search-index.mts)
// and served as /docs/search-index.json; the search box loads it into
// MiniSearch in the browser the first time it is used. MiniSearch, not
// Pagefind or FlexSearch: it indexes our own list of sections (Pagefind wants
// to crawl a static site and serve its own files and WebAssembly past our CSP),
// serialises to JSON, and its prefix and fuzzy matching and field boosts are
// what a box over ~300 sections needs, at about 8 KB of script, loaded only
// when the box is used.
import MiniSearch, { type Options, type SearchOptions } from "minisearch";

export interface SearchEntry {
  title: string;
  /** Where it is: a page, or a section of one (#its heading's id). */
  href: string;
  /** What kind of thing it is, shown beside the result. */
  kind: "page" | "section" | "route" | "error";
  /** The page a section is on, shown beside it. */
  page?: string;
  /** Words that find it besides the title: a section's whole text, a page's description. */
  text: string;
}

const SEARCH: SearchOptions = {
  boost: { title: 4, page: 1.5 },
  // "rot" finds rotate; a typo in a long word (over 6 letters: "scopes" must not find "scope" titles first) still
  // finds it; every word must be there.
  prefix: true,
  fuzzy: (term) => (term.length > 6 ? 0.2 : false),
  combineWith: "AND",
  // Thirteen route pages share sections of the same names and words (Errors, Examples): a match there counts a little
  // less than one in an error code, a route or a guide, so one query does not fill the list with them.
  boostDocument: (_id, _term, stored) =>
    stored?.kind === "error" || stored?.kind === "route"
      ? 1.5
      : String(stored?.href ?? "").startsWith("/docs/routes/")
        ? 0.7
        : 1,
};

/**
 * Lower case, and a plain English ending taken off, the same way for the index and the query, so "rotate" finds
 * "Rotation" and "rotated", and "limit" finds "limited". Short words and codes' parts keep their letters.
 */
export function searchTerm(term: string): string {
  const lower = term.toLowerCase();
  return lower.length > 4 ? lower.replace(/(?:ions?|ings?|ed|es|e|s)$/, "") : lower;
}

const OPTIONS: Options<SearchEntry> = {
  idField: "href",
  processTerm: searchTerm,
  fields: ["title", "page", "text"],
  storeFields: ["title", "href", "kind", "page"],
  searchOptions: SEARCH,
};

/** An index of the entries (each href once: the last one given wins). */
export function newDocsSearch(entries: SearchEntry[]): MiniSearch<SearchEntry> {
  const search = new MiniSearch<SearchEntry>(OPTIONS);
  search.addAll([...new Map(entries.map((entry) => [entry.href, entry])).values()]);
  return search;
}

/** The index as /docs/search-index.json serves it, read back. */
export function loadDocsSearch(json: string): MiniSearch<SearchEntry> {
  return MiniSearch.loadJSON<SearchEntry>(json, OPTIONS);
}

/** The best matches for what was typed, at most `limit`. */
export function searchDocs(search: MiniSearch<SearchEntry>, query: string, limit = 8): SearchEntry[] {
  if (query.trim() === "") return [];
  return search
    .search(query)
    .slice(0, limit)
    .map((result) => ({
      title: String(result.title),
      href: String(result.href),
      kind: result.kind as SearchEntry["kind"],
      ...(result.page ? { page: String(result.page) } : {}),
      text: "",
    }));
}
