import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SignInForm } from "@/components/auth/sign-in-form";
import { GitHubSignIn } from "@/components/auth/github-sign-in";
import { getEnv } from "@/lib/env";

export const metadata: Metadata = { title: "Sign in" };

// Only same-site paths: an absolute callbackUrl would make this an open redirect.
function safeCallback(value: string | string[] | undefined): string {
  const path = Array.isArray(value) ? value[0] : value;
  return path && path.startsWith("/") && !path.startsWith("//") ? path : "/dashboard";
}

export default async function SignInPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  await connection(); // per request: the CSP nonce
  const params = await searchParams;
  const error = typeof params.error === "string" && params.error !== "CredentialsSignin" ? params.error : undefined;
  const env = getEnv();
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold">Sign in</h1>
      <SignInForm callbackUrl={safeCallback(params.callbackUrl)} initialError={error} />
      {env.GITHUB_ID && env.GITHUB_SECRET && <GitHubSignIn />}
      <p className="mt-6 text-sm">
        New to Keyport? <Link href="/sign-up">Create an account</Link>
      </p>
    </>
  );
}
