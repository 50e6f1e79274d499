import type { Metadata } from "next";
import Link from "next/link";
import { connection } from "next/server";
import { SignUpForm } from "@/components/auth/sign-up-form";

export const metadata: Metadata = { title: "Create an account" };

export default async function SignUpPage() {
  await connection(); // per request: the CSP nonce
  return (
    <>
      <h1 className="mb-6 text-2xl font-bold">Create an account</h1>
      <SignUpForm />
      <p className="mt-6 text-sm">
        Already have an account?{" "}
        <Link href="/sign-in" className="underline">
          Sign in
        </Link>
      </p>
    </>
  );
}
