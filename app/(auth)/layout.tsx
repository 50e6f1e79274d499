import Link from "next/link";
import type { ReactNode } from "react";

export default function AuthLayout({ children }: { children: ReactNode }) {
  return (
    <div className="flex min-h-screen flex-col items-center justify-center px-4 py-12">
      <Link href="/" className="mb-8 text-2xl font-bold text-zinc-900 no-underline dark:text-zinc-100">
        Keyport
      </Link>
      <main id="main" className="w-full max-w-sm rounded-lg border border-zinc-200 p-6 dark:border-zinc-800">
        {children}
      </main>
    </div>
  );
}
