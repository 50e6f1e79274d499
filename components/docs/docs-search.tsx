"use client";

import Link from "next/link";
import { useId, useMemo, useRef, useState, type KeyboardEvent } from "react";
import type MiniSearch from "minisearch";
import type { SearchEntry } from "@/lib/docs/search";

type Search = { index: MiniSearch<SearchEntry>; find: (query: string) => SearchEntry[] };

const KIND_TEXT: Record<SearchEntry["kind"], string> = {
  page: "page",
  section: "section",
  route: "route",
  error: "error",
};

/**
 * Finds pages, sections, routes and error codes (lib/docs/search.ts). The
 * index and MiniSearch load the first time the box is used. A combobox after
 * the WAI-ARIA pattern: arrows move through the results, Enter opens one (at
 * its section), Escape closes the list, then clears the box.
 */
export function DocsSearch() {
  const id = useId();
  const [query, setQuery] = useState("");
  const [search, setSearch] = useState<Search | null>(null);
  const [failed, setFailed] = useState(false);
  const [open, setOpen] = useState(true);
  const [active, setActive] = useState(-1);
  const loading = useRef(false);
  const optionId = (index: number) => `${id}-option-${index}`;
  const results = useMemo(() => (search ? search.find(query) : []), [search, query]);

  function load() {
    if (search || failed || loading.current) return;
    loading.current = true;
    Promise.all([
      import("@/lib/docs/search"),
      fetch("/docs/search-index.json").then((response) =>
        response.ok ? response.text() : Promise.reject(new Error(String(response.status))),
      ),
    ])
      .then(([module, json]) => {
        const index = module.loadDocsSearch(json);
        setSearch({ index, find: (text) => module.searchDocs(index, text) });
      })
      .catch(() => setFailed(true));
  }

  // Through the option, which is a link, so the app's router takes it (and a page that renders the box alone needs none).
  function go(index: number) {
    document.getElementById(optionId(index))?.click();
  }

  function reset() {
    setQuery("");
    setActive(-1);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      if (results.length === 0) return;
      event.preventDefault();
      setOpen(true);
      const last = results.length - 1;
      setActive((current) =>
        event.key === "ArrowDown" ? (current >= last ? 0 : current + 1) : current <= 0 ? last : current - 1,
      );
    } else if (event.key === "Enter") {
      const chosen = active >= 0 ? active : 0;
      if (!results[chosen]) return;
      event.preventDefault();
      go(chosen);
    } else if (event.key === "Escape") {
      event.preventDefault();
      if (open && query !== "") setOpen(false);
      else setQuery("");
      setActive(-1);
    }
  }

  const searching = query.trim() !== "";
  const shown = searching && open;
  return (
    <div role="search" className="relative mb-6">
      <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-semibold">
        Search the docs
      </label>
      <input
        id={`${id}-q`}
        type="search"
        role="combobox"
        aria-expanded={shown && results.length > 0}
        aria-controls={`${id}-results`}
        aria-autocomplete="list"
        aria-activedescendant={shown && active >= 0 ? optionId(active) : undefined}
        value={query}
        placeholder="rotate, 429, python…"
        autoComplete="off"
        onFocus={load}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          load();
          setQuery(event.target.value);
          setOpen(true);
          setActive(-1);
        }}
        aria-describedby={`${id}-status`}
        className="w-full rounded-md border border-zinc-400 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900"
      />
      <p id={`${id}-status`} aria-live="polite" className="sr-only">
        {searching ? (failed ? "Search is unavailable." : search ? `${results.length} results` : "") : ""}
      </p>
      {shown && failed && <p className="mt-2 text-sm">Search is unavailable; use the menu.</p>}
      {shown && !failed && search && results.length === 0 && <p className="mt-2 text-sm">Nothing found.</p>}
      <ul
        id={`${id}-results`}
        role="listbox"
        aria-label="Search results"
        hidden={!shown || results.length === 0}
        className="mt-2 flex flex-col gap-1 rounded-md border border-zinc-200 bg-white p-2 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900"
      >
        {results.map((entry, index) => (
          // The link is the option itself (ARIA allows the role on a link): an option holding a link is a control
          // inside a control, which screen readers announce badly (axe: nested-interactive).
          <li key={entry.href} role="none">
            <Link
              href={entry.href}
              id={optionId(index)}
              role="option"
              aria-selected={index === active}
              data-testid="docs-search-result"
              tabIndex={-1}
              onClick={reset}
              className={`flex items-baseline justify-between gap-2 rounded px-1 py-0.5 text-inherit no-underline ${index === active ? "bg-indigo-100 dark:bg-indigo-950" : "hover:bg-zinc-100 dark:hover:bg-zinc-800"}`}
            >
              <span className="min-w-0 wrap-anywhere">
                {entry.title}
                {entry.page && <span className="text-xs text-zinc-600 dark:text-zinc-400"> · {entry.page}</span>}
              </span>
              <span className="text-xs text-zinc-600 dark:text-zinc-400">{KIND_TEXT[entry.kind]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </div>
  );
}
