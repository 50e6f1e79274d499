// The docs, read as a user reads them: in the browser, from the production
// build. They must cover exactly the registry's routes and the catalog's
// error codes, link nowhere broken, work with a screen reader, search and copy,
// and stay light.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { displayPath, docsPages, docsSections, routeHref } from "../../lib/docs/nav";
import { errorCodes } from "../../lib/errors/error-catalog";
import { publicRoutes, routeErrors, routesForPath } from "../../lib/public-api/routes";
import { expectAccessibleAtBothWidths, expectAccessibleLightAndDark, signUp, uniqueEmail } from "./helpers";
import { SWEEP } from "./sweep";

const JS_BUDGET_BYTES = 150 * 1024;

/** Every link on the page that stays on this site, as absolute paths with their fragment. */
async function internalLinks(page: Page): Promise<string[]> {
  const origin = new URL(page.url()).origin;
  const hrefs = await page
    .locator("a[href]")
    .evaluateAll((links) => links.map((link) => (link as HTMLAnchorElement).href));
  return hrefs.filter((href) => new URL(href).origin === origin).map((href) => href.slice(origin.length));
}

test.describe("the docs cover the registry and the catalog, and nothing else", () => {
  test("the route list has exactly the registry's routes, each linked to its page", async ({ page }) => {
    await page.goto("/docs/routes");
    const rows = await page.locator("tr[data-route]").evaluateAll((trs) =>
      trs.map((tr) => ({
        name: tr.getAttribute("data-route"),
        method: tr.querySelector("td")?.textContent?.trim(),
        path: tr.querySelector("a")?.textContent?.trim(),
        href: tr.querySelector("a")?.getAttribute("href"),
      })),
    );
    expect(rows.map((row) => row.name).sort()).toEqual(publicRoutes.map((route) => route.name).sort());
    for (const route of publicRoutes) {
      expect(rows.find((row) => row.name === route.name)).toEqual({
        name: route.name,
        method: route.method,
        path: displayPath(route),
        href: routeHref(route),
      });
    }
  });

  test("every route has a page with both header forms and exactly its errors", async ({ page }) => {
    for (const route of publicRoutes) {
      const response = await page.goto(routeHref(route));
      expect(response?.status(), route.name).toBe(200);
      await expect(page.getByRole("heading", { level: 1 })).toHaveText(`${route.method} ${displayPath(route)}`);
      const examples = page.locator(`[data-example-route="${route.name}"][data-example-variant="request"] pre`);
      await expect(examples.filter({ hasText: "Authorization: Bearer" }).first()).toBeAttached();
      await expect(examples.filter({ hasText: /X-API-Key/ }).first()).toBeAttached();
      const codes = await page
        .locator("tr[data-error-code]")
        .evaluateAll((rows) => rows.map((row) => row.getAttribute("data-error-code")));
      expect(codes, route.name).toEqual(routeErrors(route));
    }
  });

  test("the errors page has an entry for every catalog code, and no other", async ({ page }) => {
    await page.goto("/docs/errors");
    const ids = await page
      .locator('section[aria-labelledby="codes"] dl > div[id]')
      .evaluateAll((entries) => entries.map((entry) => entry.id));
    expect([...new Set(ids)].sort()).toEqual([...errorCodes].sort());
    // The catalog's `code` marks become code elements, never literal backticks.
    const entries = page.locator('section[aria-labelledby="codes"] dl');
    expect(await entries.innerText()).not.toContain("`");
    await expect(page.locator("#rate_limited").locator("code", { hasText: "Retry-After" })).toHaveCount(1);
    await expect(page.locator("#invalid_request").locator("code", { hasText: /^param$/ })).toHaveCount(1);
  });

  test("the authentication page shows both header forms and every 401", async ({ page }) => {
    await page.goto("/docs/authentication");
    await expect(page.locator("#authorization-bearer")).toContainText("Authorization: Bearer <key>");
    await expect(page.locator("#authorization-bearer")).toContainText("Recommended");
    await expect(page.locator("#x-api-key")).toContainText("X-API-Key: <key>");
    for (const code of ["missing_api_key", "invalid_api_key", "revoked_api_key", "expired_api_key"]) {
      await expect(page.locator(`#unauthorized-${code}`)).toContainText(`"code": "${code}"`);
    }
  });
});

test("every docs page was prerendered by the build, and the search index made from them", () => {
  const manifest = JSON.parse(readFileSync(path.join(".next", "prerender-manifest.json"), "utf8")) as {
    routes: Record<string, unknown>;
  };
  for (const href of docsPages.map((docsPage) => docsPage.href)) {
    expect(manifest.routes[href], href).toBeDefined();
  }
  // Sections of every page that has them, each under its heading's anchor.
  const index = JSON.parse(readFileSync(path.join("dist", "docs-search.json"), "utf8")) as {
    documentIds: Record<string, string>;
  };
  const ids = Object.values(index.documentIds);
  expect(ids).toContain("/docs/managing-keys#rotation");
  expect(ids.filter((id) => id.includes("#")).length).toBeGreaterThan(docsPages.length);
});

/**
 * Every /api/v1... path the page mentions, in its visible text or in any code
 * block (the hidden tabs' too), is a registry route. A route's own page must
 * mention its path: the scan can see one.
 */
async function expectOnlyRegistryPaths(page: Page, href: string) {
  const texts = [await page.locator("main").innerText(), ...(await page.locator("main pre").allTextContents())];
  const mentioned = new Set<string>();
  for (const text of texts.map((t) => t.replace(/\{os\.environ\['[A-Z_]+'\]\}/g, "{id}"))) {
    for (const match of text.matchAll(/\/api\/v1(?:beta)?\/[^\s"'`<>?,)\\]*/g)) mentioned.add(match[0]);
  }
  const ownRoute = publicRoutes.find((route) => routeHref(route) === href);
  if (ownRoute) expect([...mentioned], `${href} mentions its own path`).toContain(displayPath(ownRoute));
  for (const apiPath of mentioned) {
    // {param} and $ENV placeholders stand for one path segment.
    const concrete = apiPath
      .replace(/\{[a-z]+\}|\$\{[^}]+\}|\$[A-Z_]+|\{os\.environ\[[^\]]+\]\}/g, "x")
      .replace(/[.:]$/, "");
    expect(routesForPath(concrete), `${href} mentions ${apiPath}`).not.toEqual([]);
  }
}

// One test per docs section, so each has a budget a busy machine keeps.
for (const section of docsSections) {
  test(`every page of "${section.title}" loads without console errors, mentions only registry routes, and every internal link on it works`, async ({
    page,
    request,
  }) => {
    test.setTimeout(120_000);
    const problems: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => problems.push(`${page.url()}: ${error.message}`));

    const linksByPage = new Map<string, string[]>();
    // The ids on each visited page, so a link's anchor is checked without loading its page again.
    const idsByPath = new Map<string, Set<string>>();
    const collectIds = async () =>
      idsByPath.set(
        new URL(page.url()).pathname,
        new Set(await page.locator("[id]").evaluateAll((nodes) => nodes.map((node) => node.id))),
      );
    for (const docsPage of section.pages) {
      const response = await page.goto(docsPage.href);
      expect(response?.status(), docsPage.href).toBe(200);
      linksByPage.set(docsPage.href, await internalLinks(page));
      await collectIds();
      await expectOnlyRegistryPaths(page, docsPage.href);
    }
    expect(problems).toEqual([]);

    const targets = new Set([...linksByPage.values()].flat());
    // Every page links at least to the other docs pages in the sidebar.
    expect(targets.size).toBeGreaterThan(section.pages.length);
    const checkedPages = new Map<string, number>();
    for (const target of targets) {
      const url = new URL(target, "http://x");
      if (!checkedPages.has(url.pathname)) {
        checkedPages.set(url.pathname, (await request.get(url.pathname)).status());
      }
      expect(checkedPages.get(url.pathname), `link to ${target}`).toBe(200);
      if (url.hash) {
        if (!idsByPath.has(url.pathname)) {
          await page.goto(url.pathname);
          await collectIds();
        }
        const id = decodeURIComponent(url.hash.slice(1));
        expect(idsByPath.get(url.pathname)?.has(id), `anchor of ${target}`).toBe(true);
      }
    }
    // The anchor check reads real pages: this section's first page has ids to link to.
    expect(idsByPath.get(section.pages[0]!.href)?.size).toBeGreaterThan(0);
  });
}

test("the search box finds pages, routes and error codes", async ({ page }) => {
  await page.goto("/docs");
  const search = page.getByRole("combobox", { name: "Search the docs" });
  const results = page.getByRole("listbox", { name: "Search results" }).getByRole("option");

  await search.fill("rotate");
  await expect(results.filter({ hasText: "Managing keys" }).first()).toBeVisible();

  await search.fill("401");
  await expect(results.filter({ hasText: "missing_api_key" })).toBeVisible();

  await search.fill("zebraquartz");
  await expect(page.getByRole("search")).toContainText("Nothing found.");

  await search.fill("chat completions");
  await results.filter({ hasText: "POST /api/v1/chat/completions" }).first().click();
  await expect(page).toHaveURL(/\/docs\/routes\/create-chat-completion$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("POST /api/v1/chat/completions");
});

test("the search finds sections by their words, and works with the keyboard alone", async ({ page }) => {
  // Four axe scans of a docs page with the list open, besides the searches.
  test.setTimeout(180_000);
  await page.goto("/docs");
  const search = page.getByRole("combobox", { name: "Search the docs" });
  const results = page.getByRole("listbox", { name: "Search results" }).getByRole("option");
  // Each option is the result's link itself.
  const firstHref = async () => (await results.first().getAttribute("href")) ?? "";

  // Each finds the section that answers it, at its heading's anchor, not only a page.
  for (const [query, expected] of [
    // The section that says every route's page has Python examples, or one of those examples.
    ["python", /^\/docs(#routes|\/routes\/[a-z-]+#examples)$/],
    ["rotate", /^\/docs\/managing-keys#rotation$/],
    ["429", /^\/docs\/(limits-and-versioning|errors#rate_limited)$/],
    ["Idempotency-Key", /^\/docs\/(errors#idempotency_key_mismatch|routes\/create-generation#request)$/],
  ] as const) {
    await search.fill(query);
    await expect(results.first()).toBeVisible();
    expect(await firstHref(), query).toMatch(expected);
  }
  // The section that documents the header is among the first results for it.
  await search.fill("Idempotency-Key");
  const hrefs = await results.evaluateAll((links) => links.map((l) => l.getAttribute("href")));
  expect(hrefs.slice(0, 3)).toContain("/docs/routes/create-generation#request");

  // Arrows move through the results, Enter opens the chosen one at its section.
  await search.fill("rotate");
  await expect(results.first()).toBeVisible();
  await search.press("ArrowDown");
  await expect(results.nth(0)).toHaveAttribute("aria-selected", "true");
  // The list open, one result chosen: light and dark, at 1280 and 390 px (resized and restyled, never reloaded).
  await expectAccessibleAtBothWidths(page, "the docs search's results, one chosen");
  await expect(results.nth(0)).toHaveAttribute("aria-selected", "true");
  await search.press("ArrowDown");
  await expect(results.nth(1)).toHaveAttribute("aria-selected", "true");
  await expect(search).toHaveAttribute("aria-activedescendant", (await results.nth(1).getAttribute("id"))!);
  await search.press("ArrowUp");
  await expect(results.nth(0)).toHaveAttribute("aria-selected", "true");
  await search.press("Enter");
  await expect(page).toHaveURL(/\/docs\/managing-keys#rotation$/);
  await expect(page.locator("#rotation")).toBeInViewport();

  // Escape closes the list, then empties the box.
  const again = page.getByRole("combobox", { name: "Search the docs" });
  await again.fill("429");
  await expect(results.first()).toBeVisible();
  await again.press("Escape");
  await expect(page.getByRole("listbox", { name: "Search results" })).toBeHidden();
  await expect(again).toHaveValue("429");
  await again.press("Escape");
  await expect(again).toHaveValue("");
});

test("a code block's copy button puts its code on the clipboard", async ({ page, context }) => {
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await page.goto("/docs/routes/list-models");
  const block = page.locator('[data-example-route="list_models"][data-example-language="curl"]').first();
  await block.getByRole("button", { name: "Copy" }).click();
  await expect(block.getByRole("button", { name: "Copied" })).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toBe(await block.locator("pre").textContent());
  expect(copied).toContain("curl --fail-with-body");
  expect(copied).toContain("$KEYPORT_API_KEY");
});

test("the example tabs switch languages with the mouse and the arrow keys", async ({ page }) => {
  await page.goto("/docs/routes/list-models");
  const tabs = page.getByRole("tablist").first();
  await tabs.getByRole("tab", { name: "Python" }).click();
  await expect(page.getByRole("tabpanel").first()).toContainText("import requests");
  await page.keyboard.press("ArrowLeft");
  await expect(tabs.getByRole("tab", { name: "Node.js" })).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("tabpanel").first()).toContainText("await fetch(");
});

test("the tabs follow Home and End, and the chosen language holds across pages and reloads", async ({
  page,
  browser,
}) => {
  await page.goto("/docs/routes/list-models");
  const tabs = page.getByRole("tablist").first();
  const first = tabs.getByRole("tab").first();
  const last = tabs.getByRole("tab").last();
  await first.click();
  await page.keyboard.press("End");
  await expect(last).toHaveAttribute("aria-selected", "true");
  await expect(last).toBeFocused();
  await page.keyboard.press("Home");
  await expect(first).toHaveAttribute("aria-selected", "true");
  await tabs.getByRole("tab", { name: "Python" }).click();
  // Every tab set on the page follows, and so does the next page, and a reload.
  for (const list of await page.getByRole("tablist").all()) {
    await expect(list.getByRole("tab", { name: "Python" })).toHaveAttribute("aria-selected", "true");
  }
  await page.goto("/docs/routes/create-chat-completion");
  await expect(page.getByRole("tablist").first().getByRole("tab", { name: "Python" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await page.reload();
  await expect(page.getByRole("tabpanel").first()).toContainText("import requests");
  // Control: a browser that chose nothing sees the first language.
  const fresh = await (await browser.newContext()).newPage();
  await fresh.goto("/docs/routes/create-chat-completion");
  await expect(fresh.getByRole("tablist").first().getByRole("tab").first()).toHaveAttribute("aria-selected", "true");
  await fresh.context().close();
});

test("the sidebar names each route by the path a client calls", async ({ page }) => {
  await page.goto("/docs");
  const sidebar = page.getByRole("navigation", { name: "Docs" });
  await expect(sidebar.getByRole("link", { name: "GET /api/v1/models", exact: true })).toBeVisible();
  await expect(sidebar.getByRole("link", { name: "GET /v1/models", exact: true })).toHaveCount(0);
});

test("the docs and landing headers offer Sign in until the browser is signed in", async ({ page }) => {
  for (const href of ["/", "/docs"]) {
    await page.goto(href);
    const header = page.getByRole("navigation", { name: "Main" });
    await expect(header.getByRole("link", { name: "Sign in" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Dashboard" })).toBeVisible();
  }
  await signUp(page, uniqueEmail("header"));
  for (const href of ["/", "/docs"]) {
    await page.goto(href);
    const header = page.getByRole("navigation", { name: "Main" });
    await expect(header.getByRole("link", { name: "Dashboard" })).toBeVisible();
    await expect(header.getByRole("link", { name: "Sign in" })).toHaveCount(0);
  }
});

// axe, light and dark, on every docs page, the landing page and sign-in, and
// the JavaScript each docs page ships, read from the same page loads: in
// groups of four pages, each with a budget that holds on a busy 2-core machine
// (one test over all 32 pages took more than its 3 minutes there).
const AXE_GROUP = 4;
const docsHrefs = new Set(docsPages.map((docsPage) => docsPage.href));
const axePages = ["/", "/sign-in", ...docsHrefs];

/** Compressed bytes of every script the page loaded, and how many of those scripts came from the cache. */
async function scriptBytes(page: Page): Promise<{ bytes: number; fromCache: number }> {
  return page.evaluate(() => {
    const scripts = performance
      .getEntriesByType("resource")
      .map((entry) => entry as PerformanceResourceTiming)
      .filter((entry) => entry.initiatorType === "script" || new URL(entry.name).pathname.endsWith(".js"));
    return {
      bytes: scripts.reduce((sum, entry) => sum + entry.encodedBodySize, 0),
      // A script served from the cache has a body but no transfer.
      fromCache: scripts.filter((entry) => entry.transferSize === 0 && entry.encodedBodySize > 0).length,
    };
  });
}

// On a phone the wide parts (tables, code) scroll inside their boxes, which must then take the keyboard's focus
// (axe's scrollable-region-focusable, found on a route page at 390 px): every page is scanned at both widths.
for (let start = 0; start < axePages.length; start += AXE_GROUP) {
  const group = axePages.slice(start, start + AXE_GROUP);
  test(
    `axe finds nothing serious, light and dark, at 1280 and 390 px, and each docs page ships less than 150 KB of JavaScript: ${group.join(", ")}`,
    SWEEP,
    async ({ page }) => {
      test.setTimeout(180_000);
      // Nothing comes from the browser's cache, so every script a first visit needs is counted.
      const cdp = await page.context().newCDPSession(page);
      await cdp.send("Network.enable");
      await cdp.send("Network.setCacheDisabled", { cacheDisabled: true });
      const sizes: Record<string, number> = {};
      for (const href of group) {
        await page.goto(href, { waitUntil: "networkidle" });
        const { bytes, fromCache } = await scriptBytes(page);
        // The count is a first visit's: the group's later pages share scripts with the first.
        expect(fromCache, `${href}: scripts from the cache`).toBe(0);
        sizes[href] = bytes;
        await expectAccessibleLightAndDark(page, href);
        // And on a phone: the same page, narrowed without loading it again.
        await page.setViewportSize({ width: 390, height: 844 });
        await expectAccessibleLightAndDark(page, `${href} at 390px`);
        await page.setViewportSize({ width: 1280, height: 800 });
      }

      // The report holds the landing page too: the framework's own share, to read the docs pages against.
      mkdirSync(path.join(".test-logs", "docs-js-sizes"), { recursive: true });
      writeFileSync(
        path.join(".test-logs", "docs-js-sizes", `group-${start / AXE_GROUP}.json`),
        `${JSON.stringify(sizes, null, 2)}\n`,
      );
      const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
      console.log(
        Object.entries(sizes)
          .map(([href, bytes]) => `${href}: ${kb(bytes)}`)
          .join("\n"),
      );
      for (const [href, bytes] of Object.entries(sizes)) {
        // The count read real loads: every page here runs React.
        expect(bytes, `${href} loaded scripts`).toBeGreaterThan(0);
        if (docsHrefs.has(href)) expect(bytes, `${href} ships ${kb(bytes)}`).toBeLessThan(JS_BUDGET_BYTES);
      }
    },
  );
}
