"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { startBrowserSession } from "../../auth/browser-session";
import { newPasswordSchemaFor, PASSWORD_MAX } from "../../auth/credentials.schema";
import { passwordHasher } from "../../auth/password";
import { DomainError } from "../../domain-error";
import { absoluteTime } from "../../format-time";
import {
  acceptInvitation,
  deadInvitationMessage,
  findInvitation,
  INVITATION_NOT_FOUND,
} from "../../teams/invitation-links";
import { inviteMember, resendInvitation, revokeInvitation } from "../../teams/invitations";
import { joinWithNewAccount } from "../../teams/invitation-sign-up";
import { teamSlugSchema } from "../../teams/slug";
import { defineAction } from "../define-action";
import { actorFor } from "../guard";
import { teamPath } from "../team-paths";
import { SECRET_FIELDS } from "./credentials";

// Invitations from the dashboard (invite, re-send, withdraw: the team's admins,
// through the one action wrapper), and the link's two ways in: accepting with
// the session of the invited address, or creating that address's account from
// the link. The roles and every rule are lib/teams/invitations.ts's.

export const inviteMemberAction = defineAction({
  access: "session",
  input: z.object({
    team: teamSlugSchema,
    // The address and role are checked by lib/teams (field errors); here only their shape as form fields.
    email: z.string({ error: "Enter the address to invite." }).max(1000, "That email address is too long."),
    role: z.string({ error: "Choose a role." }).max(20, "Choose a role."),
  }),
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    const invited = await inviteMember(await actorFor(session), member!.team.id, input);
    revalidatePath("/dashboard", "layout");
    return `Invitation sent to ${invited.email} as ${invited.role}. The link works until ${absoluteTime(invited.expiresAt)}.`;
  },
});

const invitationChange = z.object({ team: teamSlugSchema, invitation: z.string().min(1).max(40) });

export const resendInvitationAction = defineAction({
  access: "session",
  input: invitationChange,
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    await resendInvitation(await actorFor(session), member!.team.id, input.invitation);
    revalidatePath("/dashboard", "layout");
    return "Sent again, with a new link: the old one no longer works.";
  },
});

export const revokeInvitationAction = defineAction({
  access: "session",
  input: invitationChange,
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    await revokeInvitation(await actorFor(session), member!.team.id, input.invitation);
    revalidatePath("/dashboard", "layout");
    return "Withdrawn: its link now says so.";
  },
});

const tokenField = z.string().max(100);

// POST /invitations/<token>, signed in: joins the team, if the session's address is the invitation's.
export const acceptInvitationAction = defineAction({
  access: "session",
  input: z.object({ token: tokenField }),
  failureEvent: "team.action_failed",
  async run({ input, session, ip, userAgent }): Promise<undefined> {
    const slug = await acceptInvitation(input.token, { id: session.userId, email: session.email }, ip, userAgent);
    revalidatePath("/dashboard", "layout");
    redirect(teamPath(slug));
  },
});

// POST /invitations/<token>, not signed in: the invited address's account, made from the link (which proves the
// address as a sign-up's own link does) together with its membership, then the browser signed in. An invitation
// withdrawn meanwhile makes no account (lib/teams/invitation-sign-up.ts).
export const signUpFromInvitationAction = defineAction({
  access: "public",
  input: z.object({
    token: tokenField,
    password: z.string({ error: "Choose a password." }).max(PASSWORD_MAX, `Use at most ${PASSWORD_MAX} characters.`),
  }),
  secrets: SECRET_FIELDS,
  failureEvent: "team.action_failed",
  async run({ input, ip, userAgent }): Promise<undefined> {
    const found = await findInvitation(input.token);
    if (found.state === "unknown") throw new DomainError("not_found", INVITATION_NOT_FOUND);
    if (found.state !== "pending") throw new DomainError("invalid_request", deadInvitationMessage(found.state));
    const password = newPasswordSchemaFor([found.email]).safeParse(input.password);
    if (!password.success)
      throw new DomainError("invalid_request", password.error.issues[0]!.message, { field: "password" });
    // Hashed before the transaction: Argon2 takes its time, and the team's lock is not held for it.
    const passwordHash = await passwordHasher.hash(password.data);
    const { user, slug } = await joinWithNewAccount(input.token, passwordHash, ip, userAgent);
    await startBrowserSession(user, ip, userAgent);
    redirect(teamPath(slug));
  },
});
