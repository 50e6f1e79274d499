"use server";

import { defaultAccessFields, toDefaultAccess } from "../../keys/key.schema";
import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "../define-action";
import { actorFor } from "../guard";
import { teamPath } from "../team-paths";
import { db } from "../../db";
import { statusWhere } from "../../keys/status";
import { absoluteTime } from "../../format-time";
import { confirmChange } from "../../instances/confirm-change";
import { DEFAULT_GRACE, gracePeriodSchema } from "../../keys/grace";
import type { Handover, RotatedKey } from "../../keys/lifecycle";
import { createTeam, deleteTeam, removeMember, renameTeam, setRole, type DeparturePlan } from "../../teams/members";
import { createServiceAccount } from "../../teams/service-accounts";
import { ROLES } from "../../teams/roles";
import { lifetimeDaysSchema, productionKeyRuleSchema } from "../../teams/policy.schema";
import { setTeamPolicy } from "../../teams/policy-store";
import { teamSlugSchema } from "../../teams/slug";

// Teams from the dashboard, through the one action wrapper. Every member
// change names the team by its slug: the wrapper refuses a team the person is
// not in as "not found"; their role is checked in lib/teams, under the team's
// lock, so what the page showed them decides nothing.

/**
 * Whether the team (by slug) has a usable production key: any, or only among a leaver's own keys and the keys a
 * removal form names.
 */
async function holdsUsableProductionKey(team: string, only?: { leaverId: string; named: string[] }): Promise<boolean> {
  const among = only
    ? [{ OR: [{ userId: only.leaverId, serviceAccountId: null }, { publicId: { in: only.named } }] }]
    : [];
  // Each condition in AND: "usable" is itself an OR (not expired), which a spread of another OR would overwrite.
  const where = { team: { slug: team }, environment: "prod", AND: [statusWhere("usable"), ...among] };
  return (await db.apiKey.count({ where })) > 0;
}

export const createTeamAction = defineAction({
  access: "session",
  // The checks on the name and the slug are lib/teams' (field errors); here only their shape as form fields.
  input: z.object({
    name: z.string({ error: "Give the team a name." }).max(1000, "Use at most 64 characters for the team's name."),
    slug: z
      .string()
      .max(1000, "A team's address is 3 to 40 characters.")
      .optional()
      .transform((slug) => (slug ? slug.trim() : undefined)),
  }),
  failureEvent: "team.action_failed",
  async run({ input, session }) {
    const team = await createTeam(await actorFor(session), input);
    revalidatePath("/dashboard", "layout");
    redirect(teamPath(team.slug));
  },
});

const memberChange = z.object({ team: teamSlugSchema, userId: z.string().min(1).max(64) });

/** After a removal: what happened, and each rotated key's new secret, shown once to the person who removed. */
export interface RemovalOutcome {
  message: string;
  replacements: {
    oldKeyId: string;
    keyId: string;
    label: string;
    serviceAccount: string;
    secret: string;
    oldKeyStopsAt: string;
  }[];
}

export const setRoleAction = defineAction({
  access: "session",
  input: memberChange.extend({ role: z.enum(ROLES, { error: `Choose one of: ${ROLES.join(", ")}.` }) }),
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    await setRole(await actorFor(session), member!.team.id, input.userId, input.role);
    revalidatePath("/dashboard", "layout");
    return `Role changed to ${input.role}.`;
  },
});

/**
 * A removal form's choice for one key, `handover.<key id>`. One of the member's own keys: "revoke" (the default), or
 * "rotate:" / "keep:" and a service account to hand it to. A service account's key they know: "rotate" (proposed),
 * "keep" or "revoke".
 */
const HANDOVER_FIELD = /^handover\.(key_[0-9A-Za-z]{16})$/;
const HANDOVER_CHOICE = /^(?:revoke|rotate|keep|(rotate|keep):([a-z0-9]{1,40}))$/;

/** What a removal does to each key the form names (every other key of theirs is revoked; a service account's kept). */
const removal = z.looseObject(memberChange.shape).transform((form, ctx) => {
  // One grace for every rotation of the removal: how long the old secrets, which the leaver knows, keep working.
  const grace = form.grace === undefined ? DEFAULT_GRACE : gracePeriodSchema.safeParse(form.grace).data;
  if (!grace) {
    ctx.addIssue({ code: "custom", path: ["grace"], message: "Choose when the old secrets stop working." });
    return z.NEVER;
  }
  const handovers: Handover[] = [];
  const keys: NonNullable<DeparturePlan["keys"]>[number][] = [];
  for (const [name, value] of Object.entries(form)) {
    const field = HANDOVER_FIELD.exec(name);
    if (!field) continue;
    const publicId = field[1]!;
    const choice = typeof value === "string" ? HANDOVER_CHOICE.exec(value) : null;
    if (!choice) {
      ctx.addIssue({ code: "custom", path: [name], message: "Choose what happens to this key." });
      return z.NEVER;
    }
    if (choice[1]) {
      handovers.push({ publicId, serviceAccountId: choice[2]!, rotate: choice[1] === "rotate" ? grace : null });
    } else if (value === "revoke") {
      keys.push({ publicId, action: "revoke" });
    } else if (value === "rotate") {
      keys.push({ publicId, action: "rotate", grace });
    }
  }
  return { team: form.team, userId: form.userId, plan: { handovers, keys } satisfies DeparturePlan };
});

export const removeMemberAction = defineAction({
  access: "session",
  input: removal,
  team: (input) => input.team,
  // A removal ends or moves production keys: the leaver's own are each revoked or handed over, and a service
  // account's key the form names is rotated (its new secret shown) or revoked. As revoking or rotating one from its
  // page does, that takes a fresh sign-in (an attack review revoked a service account's production key this way from
  // a session signed in an hour before).
  stepUp: (input) =>
    holdsUsableProductionKey(input.team, {
      leaverId: input.userId,
      named: [...input.plan.handovers, ...input.plan.keys].map((key) => key.publicId),
    }),
  failureEvent: "team.action_failed",
  async run({ input, session, member }): Promise<RemovalOutcome> {
    const { revoked, handedOver, rotated, kept, withdrawnInvitations } = await removeMember(
      await actorFor(session),
      member!.team.id,
      input.userId,
      input.plan,
    );
    // Their keys, revoked or handed over, are refused or answered as such by every instance before this returns.
    const confirmed = await confirmChange();
    // Leaving: the team's pages are no longer theirs.
    if (input.userId === session.userId) {
      revalidatePath("/dashboard", "layout");
      redirect("/dashboard");
    }
    // No revalidation here: it would render the removal page again at once, now for someone who is not a member
    // (a 404), and the new secrets below would be lost before they were shown. Every other page is rendered afresh
    // when it is next opened.
    const parts = [
      revoked.length === 0
        ? "None of their keys was revoked."
        : `${revoked.length === 1 ? "1 key of theirs" : `${revoked.length} keys of theirs`} stopped working just now.`,
    ];
    if (handedOver.length > 0)
      parts.push(
        handedOver.length === 1
          ? "1 key was handed to a service account and keeps working."
          : `${handedOver.length} keys were handed to a service account and keep working.`,
      );
    if (rotated.length > 0)
      parts.push(
        `${rotated.length === 1 ? "1 service account's key they knew was" : `${rotated.length} service accounts' keys they knew were`} rotated.`,
      );
    if (kept.length > 0)
      parts.push(
        `${kept.length === 1 ? "1 service account's key they know keeps" : `${kept.length} service accounts' keys they know keep`} working as ${kept.length === 1 ? "it is" : "they are"}: rotate ${kept.length === 1 ? "it" : "them"} soon.`,
      );
    if (withdrawnInvitations > 0)
      parts.push(
        `${withdrawnInvitations === 1 ? "1 invitation they sent was" : `${withdrawnInvitations} invitations they sent were`} withdrawn.`,
      );
    const shown = (key: string, serviceAccount: string, replacement: RotatedKey) => ({
      oldKeyId: key,
      keyId: replacement.key.id,
      label: replacement.key.label,
      serviceAccount,
      secret: replacement.secret,
      oldKeyStopsAt: absoluteTime(replacement.oldKeyStopsAt),
    });
    if (confirmed) parts.push(confirmed.sentence);
    return {
      message: `Removed. ${parts.join(" ")}`,
      replacements: [
        ...handedOver.flatMap(({ key, serviceAccount, replacement }) =>
          replacement ? [shown(key, serviceAccount.name, replacement)] : [],
        ),
        ...rotated.map(({ key, replacement }) => shown(key, replacement.key.serviceAccount?.name ?? "", replacement)),
      ],
    };
  },
});

export const createServiceAccountAction = defineAction({
  access: "session",
  input: z.object({
    team: teamSlugSchema,
    name: z
      .string({ error: "Give the service account a name." })
      .max(1000, "Use at most 64 characters for the service account's name."),
  }),
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    const made = await createServiceAccount(await actorFor(session), member!.team.id, input.name);
    revalidatePath("/dashboard", "layout");
    return `Service account “${made.name}” created. Give it keys from the team's key list.`;
  },
});

export const renameTeamAction = defineAction({
  access: "session",
  input: z.object({
    team: teamSlugSchema,
    name: z.string({ error: "Give the team a name." }).max(1000, "Use at most 64 characters for the team's name."),
  }),
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    const name = await renameTeam(await actorFor(session), member!.team.id, input.name);
    revalidatePath("/dashboard", "layout");
    return `Renamed to “${name}”. Its address stays /dashboard/${member!.team.slug}.`;
  },
});

export const deleteTeamAction = defineAction({
  access: "session",
  input: z.object({
    team: teamSlugSchema,
    confirm: z
      .string({ error: "Type the team's address to confirm." })
      .max(1000, "Type the team's address to confirm."),
  }),
  team: (input) => input.team,
  // Deleting a team revokes every key of it: with a production key among them, only after a fresh sign-in.
  stepUp: (input) => holdsUsableProductionKey(input.team),
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    await deleteTeam(await actorFor(session), member!.team.id, input.confirm);
    // Its keys went with it: refused by every instance before the page moves on.
    await confirmChange();
    revalidatePath("/dashboard", "layout");
    redirect("/dashboard");
  },
});

export const setTeamPolicyAction = defineAction({
  access: "session",
  input: z
    .object({
      team: teamSlugSchema,
      productionKeys: productionKeyRuleSchema,
      maxLifetimeDaysProd: lifetimeDaysSchema,
      maxLifetimeDaysDev: lifetimeDaysSchema,
      // A checkbox: "on" when ticked, absent otherwise; with the state the page was drawn with (a hidden field), so
      // only a form that showed it on turns it off (a page opened before it was turned on leaves it on).
      requireTwoFactor: z.literal("on").optional(),
      twoFactorShown: z.enum(["on", "off"]).optional(),
      ...defaultAccessFields,
    })
    .transform((input, ctx) => {
      const productionDefaults = toDefaultAccess(input, ctx);
      if (productionDefaults === z.NEVER) return z.NEVER;
      const ticked = input.requireTwoFactor === "on";
      const requireTwoFactor = ticked || input.twoFactorShown === "on" ? ticked : undefined;
      return {
        ...input,
        productionDefaults,
        requireTwoFactor,
        turnsOffTwoFactor: input.twoFactorShown === "on" && !ticked,
      };
    }),
  team: (input) => input.team,
  // Turning two-factor off lowers the team's guard: a fresh sign-in, as turning off one's own two-factor takes.
  stepUp: async (input) => input.turnsOffTwoFactor,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    // The role (team.policies) is checked in lib/teams, under the team's lock.
    await setTeamPolicy(await actorFor(session), member!.team.id, {
      productionKeys: input.productionKeys,
      maxLifetimeDays: { prod: input.maxLifetimeDaysProd, dev: input.maxLifetimeDaysDev },
      requireTwoFactor: input.requireTwoFactor,
      productionDefaults: input.productionDefaults,
    });
    revalidatePath("/dashboard", "layout");
    return "Saved the team's policies. They apply to keys made from now on; existing keys keep their expiry.";
  },
});
