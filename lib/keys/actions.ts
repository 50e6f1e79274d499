"use server";

import { revalidatePath } from "next/cache";
import type { z } from "zod";
import { failure, invalid, isForm, NOT_A_FORM, ok, type ActionResult, type ActionState } from "../action-result";
import type { Actor } from "../audit";
import { actorFor, requireActionSession } from "../auth/guard";
import { freshSignInRefusal } from "../auth/step-up";
import { absoluteTime } from "../format-time";
import { log } from "../log";
import { KEY_NOT_FOUND, KeyActionError } from "./errors";
import { getKey } from "./queries";
import { rotationOutcome } from "./grace";
import {
  createKeySchema,
  keyActionSchema,
  narrowScopesSchema,
  renameKeySchema,
  revokeKeySchema,
  rotateKeySchema,
  updateRestrictionsSchema,
} from "./key.schema";
import {
  createKey,
  dismissLeakNotice,
  renameKey,
  reportLeak,
  revokeKey,
  rotateKey,
  updateRestrictions,
} from "./lifecycle";

// The dashboard's key actions. Each: the session guard, zod on the form, the
// owner check inside lib/keys, and one ActionResult. A refused action changes
// nothing and hands back what was typed.

export interface KeyActionData {
  /** The key the result is about: the new one after create, rotate and leak. */
  keyId: string;
  label: string;
  message: string;
  /** Shown once to the user who made the key; stored nowhere. */
  secret?: string;
  /** After "this key leaked": the leaked key, whose request log shows where it was used. */
  leakedKeyId?: string;
}

/** Whether the change touches a production key: then it needs a fresh sign-in (lib/auth/step-up.ts). */
type TouchesProduction<I> = (input: I, userId: string) => Promise<boolean>;

/** The key named by the form is a production key (another user's id is "not found" later, in lib/keys). */
const productionKey: TouchesProduction<{ keyId: string }> = async (input, userId) =>
  (await getKey(userId, input.keyId))?.environment === "prod";

async function run<S extends z.ZodType>(
  formData: FormData,
  schema: S,
  work: (input: z.output<S>, actor: Actor) => Promise<KeyActionData>,
  touchesProduction?: TouchesProduction<z.output<S>>,
): Promise<ActionResult<KeyActionData>> {
  const guard = await requireActionSession();
  if (!guard.ok) return failure(guard.error, formData);
  if (!isForm(formData)) return failure(NOT_A_FORM);
  const parsed = schema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) return invalid(parsed.error, formData);
  // Checked here, on the server, whatever the dialog did: a stale session changes no production key.
  if (touchesProduction && (await touchesProduction(parsed.data, guard.session.userId))) {
    const refused = await freshSignInRefusal(guard.session, formData);
    if (refused) return refused;
  }
  try {
    const data = await work(parsed.data, await actorFor(guard.session));
    // The list, the key pages and the activity log all show what changed.
    revalidatePath("/dashboard", "layout");
    return ok(data);
  } catch (error) {
    if (error instanceof KeyActionError) {
      return failure(error.message, formData, error.field ? { fieldErrors: { [error.field]: [error.message] } } : {});
    }
    log.error("key.action_failed", { user_id: guard.session.userId, error: String((error as Error)?.message) });
    return failure("Something went wrong; nothing was changed. Try again.", formData);
  }
}

type State = ActionState<KeyActionData>;
type Result = Promise<ActionResult<KeyActionData>>;

export async function createKeyAction(_previous: State, formData: FormData): Result {
  return run(
    formData,
    createKeySchema,
    async (input, actor) => {
      const { key, secret } = await createKey(actor, input);
      return { keyId: key.id, label: key.label, secret, message: `Created “${key.label}”.` };
    },
    async (input) => input.environment === "prod",
  );
}

export async function renameKeyAction(_previous: State, formData: FormData): Result {
  return run(formData, renameKeySchema, async (input, actor) => {
    const key = await renameKey(actor, input.keyId, input.label);
    return { keyId: key.id, label: key.label, message: `Renamed to “${key.label}”.` };
  });
}

export async function updateRestrictionsAction(_previous: State, formData: FormData): Result {
  return run(
    formData,
    updateRestrictionsSchema,
    async (input, actor) => {
      const key = await updateRestrictions(actor, input.keyId, input.restrictions);
      return {
        keyId: key.id,
        label: key.label,
        message: `Saved what “${key.label}” can do. It applies from the next request.`,
      };
    },
    productionKey,
  );
}

export async function narrowScopesAction(_previous: State, formData: FormData): Result {
  return run(
    formData,
    narrowScopesSchema,
    async (input, actor) => {
      const current = await getKey(actor.userId, input.keyId);
      if (!current) throw new KeyActionError(KEY_NOT_FOUND);
      const key = await updateRestrictions(actor, input.keyId, { ...current.restrictions, scopes: input.scopes });
      return { keyId: key.id, label: key.label, message: `Narrowed “${key.label}” to ${input.scopes.join(", ")}.` };
    },
    productionKey,
  );
}

export async function rotateKeyAction(_previous: State, formData: FormData): Result {
  return run(
    formData,
    rotateKeySchema,
    async (input, actor) => {
      const now = new Date();
      const { key, secret, oldKeyStopsAt } = await rotateKey(actor, input.keyId, input.grace, now);
      return {
        keyId: key.id,
        label: key.label,
        secret,
        message: `Rotated “${key.label}”. ${rotationOutcome(oldKeyStopsAt, now, absoluteTime(oldKeyStopsAt))}`,
      };
    },
    productionKey,
  );
}

export async function revokeKeyAction(_previous: State, formData: FormData): Result {
  return run(
    formData,
    revokeKeySchema,
    async (input, actor) => {
      const key = await revokeKey(actor, input.keyId, input.reason);
      return { keyId: key.id, label: key.label, message: `Revoked “${key.label}”. It stopped working just now.` };
    },
    productionKey,
  );
}

export async function reportLeakAction(_previous: State, formData: FormData): Result {
  return run(
    formData,
    keyActionSchema,
    async (input, actor) => {
      const outcome = await reportLeak(actor, input.keyId);
      const label = outcome.revoked.label;
      if (outcome.replacement) {
        return {
          keyId: outcome.replacement.key.id,
          label,
          secret: outcome.replacement.secret,
          leakedKeyId: outcome.revoked.id,
          message: `“${label}” is revoked: it stopped working just now. Deploy this replacement.`,
        };
      }
      return {
        keyId: outcome.existingReplacementId ?? outcome.revoked.id,
        label,
        leakedKeyId: outcome.revoked.id,
        message: `“${label}” is revoked: it stopped working just now. Its replacement ${outcome.existingReplacementId} from the earlier rotation stands.`,
      };
    },
    productionKey,
  );
}

export async function dismissLeakNoticeAction(_previous: State, formData: FormData): Result {
  return run(formData, keyActionSchema, async (input, actor) => {
    const key = await dismissLeakNotice(actor, input.keyId);
    return { keyId: key.id, label: key.label, message: `Dismissed the notice about “${key.label}”.` };
  });
}
