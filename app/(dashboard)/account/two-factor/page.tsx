import type { Metadata } from "next";
import Link from "next/link";
import {
  ConfirmTwoFactor,
  DisableTwoFactor,
  ReplaceRecoveryCodes,
  StartTwoFactor,
} from "@/components/account/two-factor-settings";
import { FewRecoveryCodes } from "@/components/account/few-recovery-codes";
import { FormDone } from "@/components/forms/form-done";
import { requirePageSession } from "@/lib/web/guard";
import { RECOVERY_CODE_COUNT, RECOVERY_CODES_LOW, twoFactorView } from "@/lib/auth/two-factor/enrolment";

export const metadata: Metadata = { title: "Two-factor sign-in" };

// GET /account/two-factor: set up, confirm or turn off two-factor sign-in.
export default async function TwoFactorPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const session = await requirePageSession("/account/two-factor");
  const view = await twoFactorView(session.userId, session.email);
  // Just turned off (the action's redirect): said while it is true.
  const turnedOff = (await searchParams).turned === "off" && !view.enabled;
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
        {turnedOff && (
          <FormDone className="mb-4">
            Two-factor sign-in is off. Signing in takes your password alone; we emailed you that it changed.
          </FormDone>
        )}
        {view.enabled ? (
          <div className="flex flex-col gap-4">
            <p>
              <strong>On.</strong> {view.recoveryCodesLeft} of {RECOVERY_CODE_COUNT} recovery codes left.
            </p>
            {view.recoveryCodesLeft <= RECOVERY_CODES_LOW && <FewRecoveryCodes left={view.recoveryCodesLeft} />}
            <section aria-labelledby="recovery-heading" className="flex flex-col gap-2">
              <h2 id="recovery-heading" className="text-lg font-semibold">
                Recovery codes
              </h2>
              <p className="max-w-prose text-sm text-zinc-700 dark:text-zinc-300">
                Lost the list, or used most of it? Make ten new codes: the old ones stop working at once, and you are
                emailed.
              </p>
              <ReplaceRecoveryCodes />
            </section>
            <section aria-labelledby="turn-off-heading" className="flex flex-col gap-2">
              <h2 id="turn-off-heading" className="text-lg font-semibold">
                Turn it off
              </h2>
              <DisableTwoFactor />
            </section>
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
