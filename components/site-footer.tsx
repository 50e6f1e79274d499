import Link from "next/link";
import { siteConfig } from "@/lib/site-config";

export function SiteFooter() {
  return (
    <footer className="mt-16 border-t border-zinc-200 dark:border-zinc-800">
      <div className="mx-auto flex max-w-5xl flex-wrap justify-between gap-4 px-4 py-6 text-sm text-zinc-600 dark:text-zinc-400">
        <p>{siteConfig.description}</p>
        <Link href="/docs">API documentation</Link>
      </div>
    </footer>
  );
}
