"use server";

import { z } from "zod";
import { defineAction } from "../define-action";
import { DomainError } from "../../domain-error";
import { actorFor } from "../guard";
import { proveIdentity } from "../../auth/step-up";

// POST the "confirm it's you" dialog: a password or a two-factor code (only a
// code when two-factor is on) makes the session fresh for 10 minutes. The
// secret fields never come back.

const SECRETS = ["password", "code"] as const;
// An empty field is no answer.
const blankIsNone = (value: string | undefined) => value || undefined;
const proofSchema = z
  .object({
    password: z.string().max(256).optional().transform(blankIsNone),
    code: z.string().trim().max(40).optional().transform(blankIsNone),
  })
  .refine((proof) => Boolean(proof.password || proof.code), { message: "Enter your password or a code." });

export const stepUpAction = defineAction({
  access: "session",
  input: proofSchema,
  secrets: SECRETS,
  async run({ input, session }) {
    const proved = await proveIdentity(session, input, await actorFor(session));
    if (!proved.ok) throw new DomainError("invalid_request", proved.error);
    return "Confirmed.";
  },
});
