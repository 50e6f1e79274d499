import type { Metadata } from "next";
import Link from "next/link";
import { SiteFooter } from "@/components/site-footer";
import { SiteHeader } from "@/components/site-header";

export const metadata: Metadata = { title: "Page not found" };

export default function NotFound() {
  return (
    <>
      <SiteHeader />
      <main id="main" className="mx-auto max-w-5xl px-4 py-16">
        <h1 className="text-3xl font-bold">Page not found</h1>
        <p className="mt-4 text-zinc-700 dark:text-zinc-300">
          There is nothing at this address. Try the <Link href="/">home page</Link> or the{" "}
          <Link href="/docs">documentation</Link>.
        </p>
      </main>
      <SiteFooter />
    </>
  );
}
