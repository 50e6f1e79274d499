import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Forbidden" };

export default function Forbidden() {
  return (
    <main id="main" className="mx-auto max-w-xl px-4 py-16">
      <h1 className="text-3xl font-bold">Forbidden</h1>
      <p className="mt-4">
        API keys work only on the public API. This page needs a browser session. Read <Link href="/docs">the docs</Link>{" "}
        for the routes that accept a key.
      </p>
    </main>
  );
}
