// `npm run build`'s last step: the docs' search index, from the pages `next build`
// just prerendered (.next/server/app/docs/**.html): every page, every section of
// every page, every route and every error code (lib/docs/search.ts), written as
// MiniSearch's JSON to dist/docs-search.json, which /docs/search-index.json serves.
// Without it (`npm run dev`, which prerenders nothing) the route builds the
// smaller index of pages, routes and error codes alone.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { docsPages } from "../lib/docs/nav";
import { pageSections } from "../lib/docs/page-sections";
import { DOCS_SEARCH_FILE, indexEntries } from "../lib/docs/search-index";
import { newDocsSearch } from "../lib/docs/search";

const root = path.resolve(import.meta.dirname, "..");
const prerendered = (href: string) => path.join(root, ".next", "server", "app", `${href}.html`);

const sections = docsPages.flatMap((page) => pageSections(readFileSync(prerendered(page.href), "utf8"), page));
const entries = [...indexEntries(), ...sections];
const search = newDocsSearch(entries);
const file = path.join(root, DOCS_SEARCH_FILE);
mkdirSync(path.dirname(file), { recursive: true });
writeFileSync(file, JSON.stringify(search));
console.log(`docs search: ${search.documentCount} entries (${sections.length} sections), ${file}`);
