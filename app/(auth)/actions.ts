"use server";

import { headers } from "next/headers";
import { z } from "zod";
import { signUp } from "@/lib/auth/accounts";
import { carriesApiKey } from "@/lib/auth/api-key-headers";
import { clientIp } from "@/lib/auth/client-ip";
import { signUpSchema } from "@/lib/auth/credentials.schema";
import { API_KEY_REFUSED_MESSAGE } from "@/lib/auth/guard";
import { getEnv } from "@/lib/env";

export interface SignUpState {
  ok: boolean;
  error?: string;
  fieldErrors?: { email?: string[]; password?: string[] };
}

// Creates the account; the form then signs in through next-auth.
export async function signUpAction(_previous: SignUpState, formData: FormData): Promise<SignUpState> {
  const requestHeaders = await headers();
  if (carriesApiKey(requestHeaders)) return { ok: false, error: API_KEY_REFUSED_MESSAGE };
  const parsed = signUpSchema.safeParse({ email: formData.get("email"), password: formData.get("password") });
  if (!parsed.success) {
    return { ok: false, error: "Check the fields below.", fieldErrors: z.flattenError(parsed.error).fieldErrors };
  }
  const result = await signUp(parsed.data.email, parsed.data.password, clientIp(requestHeaders, getEnv().TRUST_PROXY));
  if (!result.ok) {
    return result.field
      ? { ok: false, error: result.error, fieldErrors: { email: [result.error] } }
      : { ok: false, error: result.error };
  }
  return { ok: true };
}
