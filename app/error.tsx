"use client";

import Link from "next/link";

// What a page shows, in place of the part that failed, when a server action or
// a navigation got no answer it could use: most often Keyport was too busy
// for the moment (lib/http/busy-page.ts answers such requests 503). Nothing
// from the error itself is shown; the server's log has it.
export default function ErrorPage({ reset }: { error: Error & { digest?: string }; reset: () => void }) {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16">
      <title>Try again · Keyport</title>
      <h1 className="text-3xl font-bold">Keyport could not answer that</h1>
      <p className="mt-4 text-zinc-700 dark:text-zinc-300">
        Keyport is busy for the moment, or something went wrong on our side. Wait a few seconds and try again.
      </p>
      <div className="mt-6 flex flex-wrap gap-3">
        {/* A plain button, not components/ui/button: this boundary ships with every page, the docs' included. */}
        <button
          type="button"
          onClick={() => reset()}
          className="inline-flex min-h-10 items-center rounded-md bg-zinc-900 px-4 font-medium text-white hover:bg-zinc-700 focus-visible:outline-2 focus-visible:outline-offset-2 dark:bg-zinc-100 dark:text-zinc-900 dark:hover:bg-zinc-300"
        >
          Try again
        </button>
        <Link href="/" className="inline-flex min-h-10 items-center px-2">
          Go to the home page
        </Link>
      </div>
    </main>
  );
}
