import Link from "next/link";
import { siteConfig } from "@/lib/site-config";
import { SessionLink } from "./session-link";

export function SiteHeader() {
  return (
    <header className="border-b border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-4 py-3">
        <Link href="/" className="text-lg font-bold text-zinc-900 no-underline dark:text-zinc-100">
          {siteConfig.name}
        </Link>
        <nav aria-label="Main">
          <ul className="flex gap-4 text-sm font-medium">
            {siteConfig.mainNav.map((item) => (
              <li key={item.href}>
                <Link href={item.href}>{item.title}</Link>
              </li>
            ))}
            <SessionLink />
          </ul>
        </nav>
      </div>
    </header>
  );
}
