"use client";

import { signIn } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useActionState, useEffect, useRef } from "react";
import { signUpAction, type SignUpState } from "@/app/(auth)/actions";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { FormAlert } from "./form-alert";

export function SignUpForm() {
  const router = useRouter();
  const credentials = useRef<{ email: string; password: string } | null>(null);
  const [state, formAction, pending] = useActionState<SignUpState, FormData>(
    async (previous, formData) => {
      credentials.current = {
        email: String(formData.get("email") ?? ""),
        password: String(formData.get("password") ?? ""),
      };
      return signUpAction(previous, formData);
    },
    { ok: false },
  );

  // Once the account exists, sign in through next-auth like the sign-in form does.
  useEffect(() => {
    if (!state.ok || !credentials.current) return;
    const { email, password } = credentials.current;
    credentials.current = null;
    void signIn("credentials", { email, password, redirect: false }).then((result) => {
      router.push(result?.error ? "/sign-in" : "/dashboard");
      router.refresh();
    });
  }, [state, router]);

  return (
    <form action={formAction} className="flex flex-col gap-4" noValidate>
      <FormAlert message={state.ok ? undefined : state.error} />
      <Input
        label="Email"
        name="email"
        type="email"
        autoComplete="email"
        required
        error={state.fieldErrors?.email?.[0]}
      />
      <Input
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        required
        hint="At least 10 characters."
        error={state.fieldErrors?.password?.[0]}
      />
      <Button type="submit" disabled={pending || state.ok}>
        {pending || state.ok ? "Creating your account…" : "Create account"}
      </Button>
    </form>
  );
}
