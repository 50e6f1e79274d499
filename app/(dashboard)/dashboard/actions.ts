"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import type { Actor } from "@/lib/audit";
import { actorFor, requireActionSession } from "@/lib/auth/guard";
import { KeyActionError } from "@/lib/keys/errors";
import { createKey, renameKey, reportLeak, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import {
  createKeySchema,
  keyActionSchema,
  renameKeySchema,
  revokeKeySchema,
  rotateKeySchema,
} from "@/lib/keys/key.schema";
import { log } from "@/lib/log";

// The key actions. Each: the session guard, zod on the form, the owner check
// inside lib/keys, and { ok, error, fieldErrors } for useActionState. A
// refused action changes nothing.

export interface KeyActionState {
  ok: boolean;
  error?: string;
  fieldErrors?: Record<string, string[] | undefined>;
  message?: string;
  /** Shown once to the user who made the key; stored nowhere. */
  secret?: string;
  keyId?: string;
}

async function run<S extends z.ZodType>(
  formData: FormData,
  schema: S,
  work: (input: z.output<S>, actor: Actor) => Promise<KeyActionState>,
): Promise<KeyActionState> {
  const guard = await requireActionSession();
  if (!guard.ok) return { ok: false, error: guard.error };
  const parsed = schema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) {
    const fieldErrors = z.flattenError(parsed.error).fieldErrors as Record<string, string[] | undefined>;
    const first = Object.values(fieldErrors).flat()[0];
    return { ok: false, error: first ?? "Check the form and try again.", fieldErrors };
  }
  try {
    const result = await work(parsed.data, await actorFor(guard.session));
    revalidatePath("/dashboard");
    return result;
  } catch (error) {
    if (error instanceof KeyActionError) return { ok: false, error: error.message };
    log.error("key.action_failed", { user_id: guard.session.userId, error: String((error as Error)?.message) });
    return { ok: false, error: "Something went wrong; nothing was changed. Try again." };
  }
}

export async function createKeyAction(_previous: KeyActionState, formData: FormData): Promise<KeyActionState> {
  return run(formData, createKeySchema, async (input, actor) => {
    const { key, secret } = await createKey(actor, input);
    return { ok: true, secret, keyId: key.id, message: `Created “${key.label}”.` };
  });
}

export async function renameKeyAction(_previous: KeyActionState, formData: FormData): Promise<KeyActionState> {
  return run(formData, renameKeySchema, async (input, actor) => {
    const key = await renameKey(actor, input.keyId, input.label);
    return { ok: true, keyId: key.id, message: `Renamed to “${key.label}”.` };
  });
}

export async function rotateKeyAction(_previous: KeyActionState, formData: FormData): Promise<KeyActionState> {
  return run(formData, rotateKeySchema, async (input, actor) => {
    const { key, secret } = await rotateKey(actor, input.keyId, input.grace);
    return {
      ok: true,
      secret,
      keyId: key.id,
      message: "Rotated. Deploy the new key before the old one stops working.",
    };
  });
}

export async function revokeKeyAction(_previous: KeyActionState, formData: FormData): Promise<KeyActionState> {
  return run(formData, revokeKeySchema, async (input, actor) => {
    const key = await revokeKey(actor, input.keyId, input.reason);
    return { ok: true, keyId: key.id, message: `Revoked “${key.label}”. It stopped working just now.` };
  });
}

export async function reportLeakAction(_previous: KeyActionState, formData: FormData): Promise<KeyActionState> {
  return run(formData, keyActionSchema, async (input, actor) => {
    const outcome = await reportLeak(actor, input.keyId);
    if (outcome.replacement) {
      return {
        ok: true,
        secret: outcome.replacement.secret,
        keyId: outcome.replacement.key.id,
        message: "The leaked key is revoked. Here is its replacement.",
      };
    }
    return {
      ok: true,
      keyId: outcome.existingReplacementId ?? undefined,
      message: `The leaked key is revoked. Its replacement ${outcome.existingReplacementId} from the earlier rotation stands.`,
    };
  });
}
