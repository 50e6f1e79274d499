import Link from "next/link";

/** Previous/next links that keep the other query parameters. */
export function Pagination({
  page,
  pageCount,
  href,
}: {
  page: number;
  pageCount: number;
  href: (page: number) => string;
}) {
  if (pageCount <= 1) return null;
  return (
    <nav aria-label="Pagination" className="mt-4 flex items-center gap-4 text-sm">
      {page > 1 ? <Link href={href(page - 1)}>Previous page</Link> : <span aria-disabled="true">Previous page</span>}
      <span>
        Page {page} of {pageCount}
      </span>
      {page < pageCount ? <Link href={href(page + 1)}>Next page</Link> : <span aria-disabled="true">Next page</span>}
    </nav>
  );
}
