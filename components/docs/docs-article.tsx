import type { ReactNode } from "react";
import { DocsPager } from "./docs-pager";
import { DocsSearch } from "./docs-search";
import { DocsSidebar } from "./docs-sidebar";

export interface DocsSectionContent {
  /** The heading's anchor; the table of contents links to it. */
  id: string;
  title: string;
  content: ReactNode;
}

/**
 * One docs page: sidebar, search, title, a table of contents built from the
 * same list of sections the page renders (so the two cannot disagree), and
 * previous/next links.
 */
export function DocsArticle({
  href,
  title,
  lead,
  sections,
}: {
  href: string;
  title: string;
  lead: ReactNode;
  sections: DocsSectionContent[];
}) {
  return (
    <div className="lg:grid lg:grid-cols-[14rem_minmax(0,1fr)] lg:gap-10">
      <aside className="lg:sticky lg:top-4 lg:max-h-[calc(100vh-2rem)] lg:self-start lg:overflow-y-auto">
        <DocsSearch />
        <DocsSidebar current={href} />
      </aside>
      <div className="min-w-0 xl:grid xl:grid-cols-[minmax(0,1fr)_12rem] xl:gap-8">
        {sections.length > 1 && (
          <nav
            aria-label="On this page"
            className="mb-8 rounded-md border border-zinc-200 p-4 text-sm xl:order-2 xl:sticky xl:top-4 xl:self-start xl:border-0 xl:p-0 dark:border-zinc-800"
          >
            <p className="mb-2 font-semibold">On this page</p>
            <ul className="flex flex-col gap-1">
              {sections.map((section) => (
                <li key={section.id}>
                  <a href={`#${section.id}`} className="text-zinc-700 no-underline hover:underline dark:text-zinc-300">
                    {section.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <article className="docs-prose min-w-0">
          <h1 className="text-3xl font-bold tracking-tight break-words">{title}</h1>
          <div className="mt-4 text-lg text-zinc-700 dark:text-zinc-300">{lead}</div>
          {sections.map((section) => (
            <section key={section.id} aria-labelledby={section.id}>
              <h2 id={section.id} className="mt-10 scroll-mt-4 text-2xl font-semibold">
                {section.title}
              </h2>
              {section.content}
            </section>
          ))}
          <DocsPager current={href} />
        </article>
      </div>
    </div>
  );
}
