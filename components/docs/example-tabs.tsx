"use client";

import { useId, useRef, useState, useSyncExternalStore, type KeyboardEvent, type ReactNode } from "react";
import { chooseLanguage, chosenLanguage, subscribeLanguage } from "./language-choice";

export interface Tab {
  label: string;
  panel: ReactNode;
}

/**
 * Tabs after the WAI-ARIA pattern: arrow keys move between tabs, Home and End
 * to the first and last, only the chosen panel shows. Every panel is in the
 * HTML (hidden ones too), so the page works, and its examples can be read,
 * before any script runs. The chosen language is remembered across pages and
 * reloads (language-choice.ts); without storage it lasts for the page.
 */
export function ExampleTabs({ label, tabs }: { label: string; tabs: Tab[] }) {
  const remembered = useSyncExternalStore(subscribeLanguage, chosenLanguage, () => null);
  const [picked, setPicked] = useState<string | null>(null);
  const chosen = remembered ?? picked;
  const active = Math.max(
    0,
    tabs.findIndex((tab) => tab.label === chosen),
  );
  const id = useId();
  const buttons = useRef<(HTMLButtonElement | null)[]>([]);

  function select(index: number) {
    const label = tabs[index]!.label;
    setPicked(label);
    chooseLanguage(label);
  }

  function onKeyDown(event: KeyboardEvent) {
    const last = tabs.length - 1;
    const next =
      event.key === "ArrowRight"
        ? (active + 1) % tabs.length
        : event.key === "ArrowLeft"
          ? (active + last) % tabs.length
          : event.key === "Home"
            ? 0
            : event.key === "End"
              ? last
              : null;
    if (next === null) return;
    event.preventDefault();
    select(next);
    buttons.current[next]?.focus();
  }

  return (
    <div className="my-4">
      <div role="tablist" aria-label={label} className="flex gap-1 border-b border-zinc-200 dark:border-zinc-800">
        {tabs.map((tab, index) => (
          <button
            key={tab.label}
            ref={(element) => {
              buttons.current[index] = element;
            }}
            type="button"
            role="tab"
            id={`${id}-tab-${index}`}
            aria-selected={index === active}
            aria-controls={`${id}-panel-${index}`}
            tabIndex={index === active ? 0 : -1}
            onClick={() => select(index)}
            onKeyDown={onKeyDown}
            className={
              index === active
                ? "-mb-px border-b-2 border-indigo-600 px-3 py-1.5 text-sm font-semibold text-zinc-900 dark:border-indigo-400 dark:text-zinc-100"
                : "px-3 py-1.5 text-sm text-zinc-700 hover:text-zinc-900 dark:text-zinc-300 dark:hover:text-zinc-100"
            }
          >
            {tab.label}
          </button>
        ))}
      </div>
      {tabs.map((tab, index) => (
        <div
          key={tab.label}
          role="tabpanel"
          id={`${id}-panel-${index}`}
          aria-labelledby={`${id}-tab-${index}`}
          hidden={index !== active}
        >
          {tab.panel}
        </div>
      ))}
    </div>
  );
}
