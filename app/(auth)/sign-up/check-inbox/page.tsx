import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Check your inbox" };

// Where every sign-up lands, for a new address and a known one alike.
export default async function CheckInboxPage() {
  await connection(); // per request: the CSP nonce
  const env = getEnv();
  const devOutbox = !env.SMTP_URL && process.env.NODE_ENV === "development";
  return (
    <>
      <h1 className="mb-4 text-2xl font-bold">Check your inbox</h1>
      <p role="status" className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        We sent a message to the address you entered. Open the link in it within 24 hours and type your password again
        to finish creating your account.
      </p>
      <p className="mb-4 text-sm text-zinc-700 dark:text-zinc-300">
        Nothing arrived after a few minutes? Check your spam folder. If the address already has an account, the message
        says so, with a link to sign in.
      </p>
      {devOutbox && (
        <p className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900 dark:border-amber-800 dark:bg-amber-950 dark:text-amber-100">
          Development: no <code>SMTP_URL</code> is set, so the message was written to <code>{env.MAIL_OUTBOX_DIR}</code>{" "}
          and its link printed to the server&apos;s log.
        </p>
      )}
      <p className="text-sm">
        <Link href="/sign-in" className="underline">
          Sign in
        </Link>{" "}
        ·{" "}
        <Link href="/sign-up" className="underline">
          Use another address
        </Link>
      </p>
    </>
  );
}
