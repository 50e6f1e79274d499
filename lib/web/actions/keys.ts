"use server";

import { revalidatePath } from "next/cache";
import type { z } from "zod";
import type { Actor } from "../../audit";
import { actorFor } from "../guard";
import type { ActiveSession } from "../../auth/session-store";
import { defineAction } from "../define-action";
import { absoluteTime } from "../../format-time";
import { keyNotFound } from "../../keys/errors";
import { getKey } from "../../keys/queries";
import { db } from "../../db";
import { memberById, type TeamMember } from "../../teams/membership";
import { rotationOutcome } from "../../keys/grace";
import { confirmChange } from "../../instances/confirm-change";
import {
  createKeySchema,
  keyActionSchema,
  narrowScopesSchema,
  renameKeySchema,
  revokeKeySchema,
  rotateKeySchema,
  updateRestrictionsSchema,
} from "../../keys/key.schema";
import {
  createKey,
  dismissLeakNotice,
  renameKey,
  reportLeak,
  revokeKey,
  rotateKey,
  updateRestrictions,
} from "../../keys/lifecycle";

// The dashboard's key actions, each defined with the one action wrapper
// (lib/web/define-action.ts: the session guard, zod on the form, the fresh
// sign-in for production keys, one ActionResult). The membership and role
// check is inside lib/keys, under the team's lock in the change's own
// transaction: what may be done to a key depends on the key (its environment
// and maker), and a role changed a moment before must count (the teams
// issue's race). A refused action changes nothing and hands back what was typed.

export interface KeyActionData {
  /** The key the result is about: the new one after create, rotate and leak. */
  keyId: string;
  label: string;
  message: string;
  /** Shown once to the user who made the key; stored nowhere. */
  secret?: string;
  /** After "this key leaked": the leaked key, whose request log shows where it was used. */
  leakedKeyId?: string;
  /** A decoy was made: the secret dialog says where to place it, not how to keep it safe. */
  decoy?: boolean;
}

/**
 * The key named by the form is a production key of a team the person is in (for anyone else nothing is said
 * here, not even the environment: lib/keys answers "not found").
 */
async function productionKey(input: { keyId: string }, session: ActiveSession): Promise<boolean> {
  const key = await db.apiKey.findUnique({
    where: { publicId: input.keyId },
    select: { teamId: true, environment: true },
  });
  return Boolean(key && key.environment === "prod" && (await memberById(session.userId, key.teamId)));
}

/** A key action: the wrapper's checks (lib/web/define-action.ts), the work as this user, and the pages that show it. */
function keyAction<S extends z.ZodType>(
  input: S,
  work: (input: z.output<S>, actor: Actor, member: TeamMember | null) => Promise<KeyActionData>,
  stepUp?: (input: z.output<S>, session: ActiveSession) => Promise<boolean>,
  team?: (input: z.output<S>) => string | undefined,
  /** A change that may refuse the key (all but creating, renaming, dismissing a notice): waits for the fence. */
  fenced = true,
) {
  return defineAction({
    access: "session",
    input,
    failureEvent: "key.action_failed",
    ...(stepUp ? { stepUp } : {}),
    ...(team ? { team } : {}),
    async run({ input: parsed, session, member }) {
      const data = await work(parsed, await actorFor(session), member);
      // The list, the key pages and the activity log all show what changed.
      revalidatePath("/dashboard", "layout");
      if (!fenced) return data;
      // Answered only once every instance serving the API has applied the change (PostgreSQL; nothing to wait for
      // on SQLite): "revoked" means revoked everywhere.
      const confirmed = await confirmChange();
      return confirmed ? { ...data, message: `${data.message} ${confirmed.sentence}` } : data;
    },
  });
}

export const createKeyAction = keyAction(
  createKeySchema,
  async (input, actor, member) => {
    // The wrapper refused a team the person is not in; without one (input.team absent), the personal team.
    const { key, secret } = await createKey(actor, { ...input, teamId: member?.team.id });
    return {
      keyId: key.id,
      label: key.label,
      secret,
      message: key.decoy ? `Created the decoy “${key.label}”.` : `Created “${key.label}”.`,
      ...(key.decoy ? { decoy: true } : {}),
    };
  },
  async (input) => input.environment === "prod",
  (input) => input.team,
  false,
);

// A new name refuses nothing: no fence to wait for (an attack review: fenced renames in a loop slowed others' revokes).
export const renameKeyAction = keyAction(
  renameKeySchema,
  async (input, actor) => {
    const { key, changed } = await renameKey(actor, input.keyId, input.label);
    const message = changed ? `Renamed to “${key.label}”.` : `“${key.label}” already has that name: nothing changed.`;
    return { keyId: key.id, label: key.label, message };
  },
  undefined,
  undefined,
  false,
);

export const updateRestrictionsAction = keyAction(
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

export const narrowScopesAction = keyAction(
  narrowScopesSchema,
  async (input, actor) => {
    const located = await db.apiKey.findUnique({ where: { publicId: input.keyId }, select: { teamId: true } });
    const current =
      located && (await memberById(actor.userId, located.teamId)) ? await getKey(located.teamId, input.keyId) : null;
    if (!current) throw keyNotFound();
    const key = await updateRestrictions(actor, input.keyId, { ...current.restrictions, scopes: input.scopes });
    return { keyId: key.id, label: key.label, message: `Narrowed “${key.label}” to ${input.scopes.join(", ")}.` };
  },
  productionKey,
);

export const rotateKeyAction = keyAction(
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

export const revokeKeyAction = keyAction(
  revokeKeySchema,
  async (input, actor) => {
    const key = await revokeKey(actor, input.keyId, input.reason);
    return { keyId: key.id, label: key.label, message: `Revoked “${key.label}”. It stopped working just now.` };
  },
  productionKey,
);

export const reportLeakAction = keyAction(
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
    if (outcome.replacementWithheld) {
      return {
        keyId: outcome.revoked.id,
        label,
        leakedKeyId: outcome.revoked.id,
        message: `“${label}” is revoked: it stopped working just now. No replacement was made: your role in this team, or its policies (for production keys, or two-factor sign-in), keep you from a new secret of this key. Ask its maker or an admin of the team to create one.`,
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

export const dismissLeakNoticeAction = keyAction(
  keyActionSchema,
  async (input, actor) => {
    const key = await dismissLeakNotice(actor, input.keyId);
    return { keyId: key.id, label: key.label, message: `Dismissed the notice about “${key.label}”.` };
  },
  undefined,
  undefined,
  false,
);
