import Link from "next/link";
import { docsSections } from "@/lib/docs/nav";

function SectionLinks({ current }: { current: string }) {
  return (
    <>
      {docsSections.map((section) => (
        <div key={section.title} className="mb-5">
          <p className="mb-1 text-xs font-semibold tracking-wide text-zinc-600 uppercase dark:text-zinc-400">
            {section.title}
          </p>
          <ul className="flex flex-col gap-0.5 text-sm">
            {section.pages.map((page) => (
              <li key={page.href}>
                <Link
                  href={page.href}
                  aria-current={page.href === current ? "page" : undefined}
                  className={
                    page.href === current
                      ? "block rounded bg-indigo-50 px-2 py-1 font-semibold text-indigo-900 no-underline dark:bg-indigo-950 dark:text-indigo-100"
                      : "block rounded px-2 py-1 text-zinc-700 no-underline hover:bg-zinc-100 dark:text-zinc-300 dark:hover:bg-zinc-900"
                  }
                >
                  {page.title}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </>
  );
}

/** The docs' navigation: a collapsible menu on a phone, a column beside the page on a wide screen. */
export function DocsSidebar({ current }: { current: string }) {
  return (
    <>
      <details className="mb-6 rounded-md border border-zinc-200 lg:hidden dark:border-zinc-800">
        <summary className="cursor-pointer px-3 py-2 text-sm font-semibold">Docs menu</summary>
        <nav aria-label="Docs menu" className="px-3 pb-3">
          <SectionLinks current={current} />
        </nav>
      </details>
      <nav aria-label="Docs" className="hidden lg:block">
        <SectionLinks current={current} />
      </nav>
    </>
  );
}
