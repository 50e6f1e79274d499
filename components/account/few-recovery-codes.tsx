import Link from "next/link";

/** Said on the account pages when RECOVERY_CODES_LOW or fewer recovery codes are left. */
export function FewRecoveryCodes({ left, link = false }: { left: number; link?: boolean }) {
  return (
    <p
      role="note"
      data-testid="few-recovery-codes"
      className="max-w-prose rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:bg-amber-950 dark:text-amber-100"
    >
      {left === 0 ? "You have no recovery codes left" : `Only ${left} recovery ${left === 1 ? "code" : "codes"} left`}:
      if you lose your phone, you may not be able to sign in.{" "}
      {link ? (
        <Link href="/account/two-factor#recovery-heading" className="underline">
          Make new recovery codes
        </Link>
      ) : (
        "Make new ones below"
      )}
      .
    </p>
  );
}
