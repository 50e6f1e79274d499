// The scopes in the docs come from the registry and SCOPES, never from typed
// text: the restricted-keys page's table, each route page's scope line and
// the route list's Scope column, checked on the HTML the pages render.
import { createElement, type ReactElement } from "react";
import { prerenderToNodeStream } from "react-dom/static";
import { describe, expect, it } from "vitest";
import RestrictedKeysPage from "@/app/(docs)/docs/restricted-keys/page";
import RoutePage from "@/app/(docs)/docs/routes/[route]/page";
import { RouteTable } from "@/components/docs/route-table";
import { insufficientScopeExample, ipNotAllowedExample } from "@/lib/docs/error-examples";
import { docsPages, routeHref, routeSlug } from "@/lib/docs/nav";
import { scopeHref, scopeRows } from "@/lib/docs/scope-routes";
import { newDocsSearch, searchDocs } from "@/lib/docs/search";
import { indexEntries } from "@/lib/docs/search-index";
import { insufficientScopeChallenge } from "@/lib/public-api/credentials";
import { publicRoutes, routeErrors, type PublicRoute } from "@/lib/public-api/routes";
import { READ_ONLY_SCOPES, SCOPE_NAMES, SCOPES } from "@/lib/keys/scopes";

const BASE = "https://api.keyport.example";
const routes = publicRoutes as readonly PublicRoute[];

async function html(element: ReactElement): Promise<string> {
  const { prelude } = await prerenderToNodeStream(element);
  let text = "";
  for await (const chunk of prelude) text += String(chunk);
  return text;
}

/** The restricted-keys table as rendered: each scope row's text and the routes it links. */
function renderedScopeRows(page: string) {
  return [...page.matchAll(/<tr[^>]*data-scope="([^"]+)"[^>]*>([\s\S]*?)<\/tr>/g)].map(([, scope, row = ""]) => ({
    scope,
    row,
    routes: [...row.matchAll(/data-scope-route="([^"]+)"/g)].map((match) => match[1]),
  }));
}

describe("the scope table's data", () => {
  it("is every scope of SCOPES, in order, with its description and Read only membership", () => {
    const rows = scopeRows();
    expect(rows.map((row) => row.scope)).toEqual(SCOPE_NAMES);
    for (const row of rows) {
      expect(row.description).toBe(SCOPES[row.scope]);
      expect(row.readOnly).toBe(READ_ONLY_SCOPES.includes(row.scope));
    }
  });

  it("puts every registry route under its own scope, exactly once", () => {
    const listed = scopeRows().flatMap((row) => row.routes.map((route) => [route.name, row.scope]));
    expect(listed.sort()).toEqual(routes.map((route) => [route.name, route.scope]).sort());
  });
});

describe("the restricted-keys page", () => {
  it("renders the table from the registry: one row per scope, each route linked under its scope", async () => {
    const page = await html(createElement(RestrictedKeysPage));
    const rows = renderedScopeRows(page);
    expect(rows.map((row) => row.scope)).toEqual(SCOPE_NAMES);
    for (const { scope, row, routes: linked } of rows) {
      const expected = routes.filter((route) => route.scope === scope);
      expect(linked, scope).toEqual(expected.map((route) => route.name));
      expect(row).toContain(SCOPES[scope as keyof typeof SCOPES]);
      for (const route of expected) expect(row).toContain(`href="${routeHref(route)}"`);
    }
  });

  it("shows both 403 answers, the challenge included", async () => {
    const page = await html(createElement(RestrictedKeysPage));
    expect(page).toContain("ip_not_allowed");
    expect(page).toMatch(/WWW-Authenticate: Bearer realm=(&quot;|")keyport/);
    expect(page).toMatch(/error=(&quot;|")insufficient_scope/);
  });

  it("is in the navigation and found by the search", () => {
    expect(docsPages.map((page) => page.href)).toContain("/docs/restricted-keys");
    const index = newDocsSearch(indexEntries());
    expect(searchDocs(index, "allowlist")[0]?.href).toBe("/docs/restricted-keys");
    // Without the built sections (they come from the prerendered pages), the scope error's title and the page share
    // the top: both are about scopes. The built index puts the "Scopes" section first (e2e docs search test).
    expect(
      searchDocs(index, "scopes")
        .slice(0, 2)
        .map((entry) => entry.href),
    ).toContain("/docs/restricted-keys");
  });
});

describe("the 403 examples", () => {
  it("carry the catalog's codes, and the route's scope in the challenge", () => {
    expect(ipNotAllowedExample(BASE)).toContain('"code": "ip_not_allowed"');
    for (const route of routes) {
      const example = insufficientScopeExample(route, BASE);
      expect(example).toContain(`WWW-Authenticate: ${insufficientScopeChallenge(route.scope)}`);
      expect(example).toContain(`the ${route.scope} scope`);
    }
  });
});

describe("the route pages and the route list", () => {
  it.each(routes.map((route) => [route.name, route] as const))(
    "%s names the registry's scope, linked to its row, and lists both 403s",
    async (_name, route) => {
      const page = await html(await RoutePage({ params: Promise.resolve({ route: routeSlug(route) }) }));
      const line = /<p data-route-scope="([^"]+)">([\s\S]*?)<\/p>/.exec(page);
      expect(line?.[1]).toBe(route.scope);
      expect(line?.[2]).toContain(`href="${scopeHref(route.scope)}"`);
      const codes = [...page.matchAll(/data-error-code="([^"]+)"/g)].map((match) => match[1]);
      expect(codes).toEqual(routeErrors(route));
      expect(codes).toEqual(expect.arrayContaining(["ip_not_allowed", "insufficient_scope"]));
    },
    30_000,
  );

  it("the route list's Scope column is the registry's", async () => {
    const table = await html(createElement(RouteTable, { grouped: true }));
    const rows = [...table.matchAll(/<tr data-route="([^"]+)">([\s\S]*?)<\/tr>/g)];
    expect(rows.map(([, name]) => name).sort()).toEqual(routes.map((route) => route.name).sort());
    for (const [, name, row = ""] of rows) {
      const route = routes.find((r) => r.name === name)!;
      // The last cell links the route's scope to its row on the restricted-keys page (the styling may change).
      const cell = /<td[^>]*>((?:(?!<td)[\s\S])*)<\/td>$/.exec(row)?.[1] ?? "";
      expect(cell, name).toMatch(
        new RegExp(`^<a href="${scopeHref(route.scope)}"><code[^>]*>${route.scope}</code></a>$`),
      );
    }
  });
});
