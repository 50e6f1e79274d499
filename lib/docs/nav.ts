// The docs' pages as data, in reading order: the sidebar, the previous/next
// links and the search index all read this list. The per-route pages come
// from the route registry, so a new route appears here without an edit.
import { publicRoutes, templatePath, versionOf, type PublicRoute } from "../public-api/routes";

export interface DocsPage {
  title: string;
  href: string;
  /** One line, shown in search results. */
  description: string;
  /** More words the search box should find the page by. */
  keywords?: string;
}

export interface DocsSection {
  title: string;
  pages: DocsPage[];
}

/** The docs slug of a route: its registry name with dashes (list_models -> list-models). */
export function routeSlug(route: Pick<PublicRoute, "name">): string {
  return route.name.replaceAll("_", "-");
}

export function routeHref(route: Pick<PublicRoute, "name">): string {
  return `/docs/routes/${routeSlug(route)}`;
}

/** The route's path as a client writes it: [param] becomes {param}. */
export function displayPath(route: Pick<PublicRoute, "path">): string {
  return templatePath(route.path);
}

const routePages = (version: "v1" | "v1beta"): DocsPage[] =>
  publicRoutes
    .filter((route) => versionOf(route) === version)
    .map((route) => ({
      // The real path, as a client calls it (a new user's walk: "GET /v1/models" read as a path, which is a 404).
      title: `${route.method} ${displayPath(route)}`,
      href: routeHref(route),
      description: route.summary,
    }));

export const docsSections: DocsSection[] = [
  {
    title: "Getting started",
    pages: [
      { title: "Overview and quick start", href: "/docs", description: "What the API is, and your first call." },
      {
        title: "Authentication",
        href: "/docs/authentication",
        description: "The two header forms, the key format and the 401 answers.",
        keywords: "authorization bearer x-api-key header checksum sk_dev_ sk_prod_ 401 unauthorized url",
      },
      {
        title: "Sessions and keys",
        href: "/docs/sessions-and-keys",
        description: "Sessions are for the portal, keys for the API; they never mix.",
        keywords: "cookie browser 403 api_key_not_allowed",
      },
    ],
  },
  {
    title: "API reference",
    pages: [
      { title: "Route list", href: "/docs/routes", description: "All 13 routes of the public API." },
      ...routePages("v1"),
      ...routePages("v1beta"),
    ],
  },
  {
    title: "Keys",
    pages: [
      {
        title: "Managing keys",
        href: "/docs/managing-keys",
        description: "Dev and prod keys, labels, expiry, rotation, revocation, usage and the leaked-key checklist.",
        keywords:
          "rotate revoke leaked leak grace environment dev prod label expire usage requests request log csv export ip user agent retention",
      },
      {
        title: "Restricted keys",
        href: "/docs/restricted-keys",
        description: "Scopes, an IP allowlist and a key's own rate limit; the 403 answers.",
        keywords:
          "scope scopes read only permission allowlist allow ip ipv4 ipv6 cidr proxy trust_proxy x-forwarded-for 403 insufficient_scope ip_not_allowed www-authenticate rate limit expiry cli",
      },
      {
        title: "Teams and roles",
        href: "/docs/teams-and-roles",
        description:
          "Teams own keys; what viewers, developers, admins and owners may do; what happens when someone leaves.",
        keywords: "team member members role roles viewer developer admin owner permission switcher leave remove slug",
      },
      {
        title: "Keeping keys safe",
        href: "/docs/keeping-keys-safe",
        description: "Server-side environment variables, never client-side JavaScript.",
        keywords: "secret next.js process.env NEXT_PUBLIC_ browser client component server action leak",
      },
    ],
  },
  {
    title: "Reference",
    pages: [
      { title: "Errors", href: "/docs/errors", description: "Every error code, its status and what to do." },
      {
        title: "Limits and versioning",
        href: "/docs/limits-and-versioning",
        description: "Rate limits, body limits, and what v1 and v1beta mean.",
        keywords: "429 ratelimit retry-after 413 payload size version deprecation beta",
      },
    ],
  },
];

export const docsPages: DocsPage[] = docsSections.flatMap((section) => section.pages);

/** The pages before and after one, for the previous/next links. */
export function neighbours(href: string): { previous?: DocsPage; next?: DocsPage } {
  const index = docsPages.findIndex((page) => page.href === href);
  if (index < 0) return {};
  return { previous: docsPages[index - 1], next: docsPages[index + 1] };
}
