"use server";

import { z } from "zod";
import { failure, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import { actorFor, requireActionSession } from "./guard";
import { PasswordCheckBusy, BUSY_MESSAGE } from "./password";
import { proveIdentity } from "./step-up";

// POST the "confirm it's you" dialog: a password or a two-factor code (only a
// code when two-factor is on) makes the session fresh for 10 minutes. The
// secret fields never come back.

const SECRETS = ["password", "code"] as const;
const proofSchema = z
  .object({
    password: z.string().max(256).optional(),
    code: z.string().trim().max(40).optional(),
  })
  .refine((proof) => Boolean(proof.password || proof.code), { message: "Enter your password or a code." });

export async function stepUpAction(_previous: ActionState<string>, formData: FormData): Promise<ActionResult<string>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error);
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = proofSchema.safeParse({
    password: formData.get("password") || undefined,
    code: formData.get("code") || undefined,
  });
  if (!parsed.success) return failure(parsed.error.issues[0]!.message, formData, { omit: SECRETS });
  try {
    const proved = await proveIdentity(guard.session, parsed.data, await actorFor(guard.session));
    if (!proved.ok) return failure(proved.error, formData, { omit: SECRETS });
  } catch (error) {
    if (error instanceof PasswordCheckBusy) return failure(BUSY_MESSAGE, formData, { omit: SECRETS });
    throw error;
  }
  return ok("Confirmed.");
}
