"use client";

import Link from "next/link";
import { useId, useMemo, useState } from "react";
import { searchDocs, type SearchEntry } from "@/lib/docs/search";

/** Finds pages, routes and error codes in an index fetched the first time the box is used. */
export function DocsSearch() {
  const id = useId();
  const [query, setQuery] = useState("");
  const [index, setIndex] = useState<SearchEntry[] | null>(null);
  const [failed, setFailed] = useState(false);
  const results = useMemo(() => (index ? searchDocs(index, query) : []), [index, query]);

  function load() {
    if (index || failed) return;
    fetch("/docs/search-index.json")
      .then((response) => (response.ok ? response.json() : Promise.reject(new Error(String(response.status)))))
      .then((entries: SearchEntry[]) => setIndex(entries))
      .catch(() => setFailed(true));
  }

  const searching = query.trim() !== "";
  return (
    <div role="search" className="relative mb-6">
      <label htmlFor={`${id}-q`} className="mb-1 block text-sm font-semibold">
        Search the docs
      </label>
      <input
        id={`${id}-q`}
        type="search"
        value={query}
        placeholder="models, 401, rotate…"
        autoComplete="off"
        onFocus={load}
        onChange={(event) => {
          load();
          setQuery(event.target.value);
        }}
        aria-describedby={`${id}-status`}
        className="w-full rounded-md border border-zinc-400 bg-white px-3 py-1.5 text-sm dark:border-zinc-600 dark:bg-zinc-900"
      />
      <p id={`${id}-status`} aria-live="polite" className="sr-only">
        {searching ? (failed ? "Search is unavailable." : `${results.length} results`) : ""}
      </p>
      {searching && (
        <ul className="mt-2 flex flex-col gap-1 rounded-md border border-zinc-200 bg-white p-2 text-sm shadow-sm dark:border-zinc-800 dark:bg-zinc-900">
          {failed && <li>Search is unavailable; use the menu.</li>}
          {!failed && index && results.length === 0 && <li>Nothing found.</li>}
          {results.map((entry) => (
            <li key={`${entry.kind}:${entry.href}`}>
              <Link
                href={entry.href}
                onClick={() => setQuery("")}
                className="flex items-baseline justify-between gap-2 rounded px-1 py-0.5 no-underline hover:bg-zinc-100 dark:hover:bg-zinc-800"
              >
                <span className="break-all">{entry.title}</span>
                <span className="text-xs text-zinc-600 dark:text-zinc-400">{entry.kind}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
