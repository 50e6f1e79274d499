import Link from "next/link";
import type { ReactNode } from "react";
import { SignOutButton } from "@/components/auth/sign-out-button";
import { StepUpProvider } from "@/components/auth/step-up-dialog";
import { KeyDialogsProvider } from "@/components/keys/key-dialogs";
import { optionalSession } from "@/lib/web/guard";
import { stepUpMethods } from "@/lib/auth/step-up";
import { restrictionOptions } from "@/lib/keys/restriction-options";
import { routesByScope } from "@/lib/public-api/routes";

const nav = [
  { title: "API keys", href: "/dashboard" },
  { title: "Account", href: "/account" },
  { title: "Docs", href: "/docs" },
];

// Each page under this layout calls the session guard itself: a layout is
// not re-run on client navigation, so it cannot be the check.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await optionalSession();
  const methods = session ? await stepUpMethods(session.userId) : { password: true, twoFactor: false };
  return (
    <>
      <header className="border-b border-zinc-200 dark:border-zinc-800">
        <div className="mx-auto flex max-w-5xl flex-wrap items-center justify-between gap-4 px-4 py-3">
          <Link href="/dashboard" className="text-lg font-bold text-zinc-900 no-underline dark:text-zinc-100">
            Keyport
          </Link>
          <nav aria-label="Dashboard">
            <ul className="flex flex-wrap gap-4 text-sm font-medium">
              {nav.map((item) => (
                <li key={item.href}>
                  <Link href={item.href}>{item.title}</Link>
                </li>
              ))}
            </ul>
          </nav>
          {session && (
            <div className="flex min-w-0 flex-wrap items-center gap-3 text-sm">
              <span className="min-w-0 break-all text-zinc-600 dark:text-zinc-400">{session.email}</span>
              <SignOutButton />
            </div>
          )}
        </div>
      </header>
      {/* The key dialogs sit here, above every page of the dashboard, so a new
          secret outlives any change of the page under it. */}
      {/* Above the key dialogs: a production key change on a stale session asks here, then carries on. */}
      <StepUpProvider methods={methods}>
        <KeyDialogsProvider options={restrictionOptions(routesByScope())}>
          <main id="main" className="mx-auto max-w-5xl px-4 py-8">
            {children}
          </main>
        </KeyDialogsProvider>
      </StepUpProvider>
    </>
  );
}
