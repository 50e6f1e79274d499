import type { Metadata } from "next";
import { connection } from "next/server";
import { ReportKeyForm } from "@/components/keys/report-key-form";

export const metadata: Metadata = { title: "Report a Keyport key you found" };

// One of the two documented routes that take neither an API key nor a
// session (docs/security.md, "Sessions and keys never mix"): anyone may use it, since
// all it can do is take a key away from whoever leaked it.
export default async function ReportKeyPage() {
  await connection(); // per request: the CSP nonce
  return (
    <>
      <h1 className="mb-2 text-2xl font-bold">Found a Keyport key?</h1>
      <p className="mb-6 text-sm text-zinc-700 dark:text-zinc-300">
        If you came across a Keyport API key in public (in code, a log or a paste), report it here. A live key stops
        working at once and its owner is told; nobody needs to sign in, and we keep nothing of what you paste.
      </p>
      <ReportKeyForm />
    </>
  );
}
