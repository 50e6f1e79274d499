import Link from "next/link";
import { neighbours } from "@/lib/docs/nav";

export function DocsPager({ current }: { current: string }) {
  const { previous, next } = neighbours(current);
  return (
    <nav
      aria-label="Previous and next page"
      className="mt-12 flex justify-between gap-4 border-t border-zinc-200 pt-6 text-sm dark:border-zinc-800"
    >
      {previous ? (
        <Link href={previous.href} rel="prev" className="no-underline hover:underline">
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">Previous</span>
          {previous.title}
        </Link>
      ) : (
        <span />
      )}
      {next ? (
        <Link href={next.href} rel="next" className="text-right no-underline hover:underline">
          <span className="block text-xs text-zinc-600 dark:text-zinc-400">Next</span>
          {next.title}
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}
