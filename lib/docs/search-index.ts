import { errorCatalog, errorCodes } from "../errors/error-catalog";
import { publicRoutes } from "../public-api/routes";
import { displayPath, docsPages, routeHref } from "./nav";
import type { SearchEntry } from "./search";

/** Where `npm run build` writes the whole index (scripts/docs-search-index.mts), from the project's root. */
export const DOCS_SEARCH_FILE = "dist/docs-search.json";

/** The entries known without the prerendered pages: every docs page, every route and every error code. */
export function indexEntries(): SearchEntry[] {
  return [
    ...docsPages
      .filter((page) => !page.href.startsWith("/docs/routes/"))
      .map((page) => ({
        title: page.title,
        href: page.href,
        kind: "page" as const,
        text: `${page.description} ${page.keywords ?? ""}`,
      })),
    ...publicRoutes.map((route) => ({
      title: `${route.method} ${displayPath(route)}`,
      href: routeHref(route),
      kind: "route" as const,
      text: `${route.summary} ${route.name}`,
    })),
    ...errorCodes.map((code) => ({
      title: code,
      href: `/docs/errors#${code}`,
      kind: "error" as const,
      text: `${errorCatalog[code].status} ${errorCatalog[code].type} ${errorCatalog[code].message}`,
    })),
  ];
}
