import Link from "next/link";
import { neighbours, type DocsPage } from "@/lib/docs/nav";

function PagerLink({ page, rel }: { page: DocsPage; rel: "prev" | "next" }) {
  return (
    <Link
      href={page.href}
      rel={rel}
      className={`min-w-0 break-words no-underline hover:underline ${rel === "next" ? "ml-auto text-right" : ""}`}
    >
      <span className="block text-xs text-zinc-600 dark:text-zinc-400">{rel === "prev" ? "Previous" : "Next"}</span>
      {page.title}
    </Link>
  );
}

export function DocsPager({ current }: { current: string }) {
  const { previous, next } = neighbours(current);
  return (
    <nav
      aria-label="Previous and next page"
      className="mt-12 flex justify-between gap-4 border-t border-zinc-200 pt-6 text-sm dark:border-zinc-800"
    >
      {previous ? <PagerLink page={previous} rel="prev" /> : <span />}
      {next ? <PagerLink page={next} rel="next" /> : <span />}
    </nav>
  );
}
