// The docs' generated parts, checked without a browser: the navigation, the
// examples and the search.
import { describe, expect, it } from "vitest";
import { exampleInputs, streamVariants } from "@/lib/docs/example-inputs";
import { exampleLanguages, headerForms, KEY_ENV, routeExamples } from "@/lib/docs/examples";
import { docsPages, neighbours, routeHref } from "@/lib/docs/nav";
import { newDocsSearch, searchDocs } from "@/lib/docs/search";
import { indexEntries } from "@/lib/docs/search-index";
import { errorCodes } from "@/lib/errors/error-catalog";
import { publicRoutes } from "@/lib/public-api/routes";

const BASE = "https://api.keyport.example";

describe("the docs' navigation", () => {
  it("has one page per registry route, and no route page the registry lacks", () => {
    const routePages = docsPages.filter((page) => page.href.startsWith("/docs/routes/"));
    expect(routePages.map((page) => page.href).sort()).toEqual(publicRoutes.map(routeHref).sort());
  });

  it("links every page to the next and back", () => {
    for (const [index, page] of docsPages.entries()) {
      expect(neighbours(page.href).previous).toBe(docsPages[index - 1]);
      expect(neighbours(page.href).next).toBe(docsPages[index + 1]);
    }
  });
});

describe("the examples", () => {
  it.each(publicRoutes.map((route) => [route.name, route] as const))(
    "%s: three languages, both header forms, the key from the environment",
    (_name, route) => {
      const examples = routeExamples(BASE, route, exampleInputs[route.name]);
      expect(examples.map((e) => `${e.language}/${e.form}`).sort()).toEqual(
        exampleLanguages.flatMap((language) => headerForms.map((form) => `${language}/${form}`)).sort(),
      );
      for (const example of examples) {
        expect(example.code).toContain(KEY_ENV);
        expect(example.code).toContain(BASE);
        // No key-shaped literal: the secret never goes into a page.
        expect(example.code).not.toMatch(/sk_(dev|prod)_[0-9A-Za-z]/);
        expect(example.code).toContain(example.form === "bearer" ? "Bearer" : "X-API-Key");
        // The key never goes in the URL.
        expect(example.code).not.toMatch(/[?&](key|api_key)=/);
      }
    },
  );

  it("fills path parameters, quotes the body and streams where asked", () => {
    const route = publicRoutes.find((r) => r.name === "get_app_generation")!;
    const [curl] = routeExamples(BASE, route, exampleInputs.get_app_generation);
    expect(curl!.code).toContain(`"${BASE}/api/v1/apps/poster-studio/generations/$GENERATION_ID"`);
    const chat = publicRoutes.find((r) => r.name === "create_chat_completion")!;
    const streamed = routeExamples(BASE, chat, streamVariants.create_chat_completion!);
    expect(streamed.find((e) => e.language === "curl")!.code).toContain(" -N ");
    expect(streamed.find((e) => e.language === "python")!.code).toContain("stream=True");
    expect(streamed.find((e) => e.language === "python")!.code).toContain('"stream": True');
  });
});

describe("the search", () => {
  const entries = indexEntries();
  const index = newDocsSearch(entries);

  it("indexes every page, route and error code", () => {
    expect(entries.filter((entry) => entry.kind === "route")).toHaveLength(publicRoutes.length);
    expect(entries.filter((entry) => entry.kind === "error").map((entry) => entry.title)).toEqual(errorCodes);
    expect(entries.filter((entry) => entry.kind === "page").length).toBe(
      docsPages.filter((page) => !page.href.startsWith("/docs/routes/")).length,
    );
    expect(index.documentCount).toBe(entries.length);
  });

  it("needs every word, and ranks title matches first", () => {
    expect(searchDocs(index, "")).toEqual([]);
    expect(searchDocs(index, "chat completions")[0]?.href).toBe("/docs/routes/create-chat-completion");
    expect(searchDocs(index, "rotate")[0]?.href).toBe("/docs/managing-keys");
    expect(searchDocs(index, "rate_limited")[0]?.href).toBe("/docs/errors#rate_limited");
    expect(searchDocs(index, "chat zebra")).toEqual([]);
    expect(searchDocs(index, "api", 3)).toHaveLength(3);
  });
});

describe("the docs' base URL", () => {
  it("is PUBLIC_BASE_URL without a trailing slash, so no example has a double slash", async () => {
    const { docsBaseUrl } = await import("@/lib/docs/base-url");
    const saved = process.env.PUBLIC_BASE_URL;
    try {
      process.env.PUBLIC_BASE_URL = "https://api.keyport.example/";
      expect(docsBaseUrl()).toBe("https://api.keyport.example");
      delete process.env.PUBLIC_BASE_URL;
      expect(docsBaseUrl()).toBe("http://localhost:3000");
    } finally {
      if (saved === undefined) delete process.env.PUBLIC_BASE_URL;
      else process.env.PUBLIC_BASE_URL = saved;
    }
  });
});
