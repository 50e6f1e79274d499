import type { Metadata } from "next";
import Link from "next/link";
import { ConfirmTwoFactor, DisableTwoFactor, StartTwoFactor } from "@/components/account/two-factor-settings";
import { requirePageSession } from "@/lib/web/guard";
import { twoFactorView } from "@/lib/auth/two-factor/enrolment";

export const metadata: Metadata = { title: "Two-factor sign-in" };

// GET /account/two-factor: set up, confirm or turn off two-factor sign-in.
export default async function TwoFactorPage() {
  const session = await requirePageSession("/account/two-factor");
  const view = await twoFactorView(session.userId, session.email);
  return (
    <>
      <p className="text-sm">
        <Link href="/account" className="underline">
          Account
        </Link>
      </p>
      <h1 className="mt-2 text-2xl font-bold" tabIndex={-1}>
        Two-factor sign-in
      </h1>
      <p className="mt-2 max-w-prose text-zinc-700 dark:text-zinc-300">
        With two-factor sign-in on, signing in takes your password and a code from an app on your phone, so a stolen
        password alone cannot reach your keys.
      </p>
      <div className="mt-6">
        {view.enabled ? (
          <div className="flex flex-col gap-4">
            <p>
              <strong>On.</strong> {view.recoveryCodesLeft} of 10 recovery codes left.
            </p>
            <DisableTwoFactor />
          </div>
        ) : view.pending ? (
          <ConfirmTwoFactor pending={view.pending} />
        ) : (
          <StartTwoFactor />
        )}
      </div>
    </>
  );
}
