"use server";

import { revalidatePath } from "next/cache";
import { redirect } from "next/navigation";
import { z } from "zod";
import { defineAction } from "../define-action";
import { actorFor } from "../guard";
import { teamPath } from "../team-paths";
import { createTeam, deleteTeam, removeMember, renameTeam, setRole } from "../../teams/members";
import { ROLES } from "../../teams/roles";
import { teamSlugSchema } from "../../teams/slug";

// Teams from the dashboard, through the one action wrapper. Every member
// change names the team by its slug: the wrapper refuses a team the person is
// not in as "not found"; their role is checked in lib/teams, under the team's
// lock, so what the page showed them decides nothing.

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

export const removeMemberAction = defineAction({
  access: "session",
  input: memberChange,
  team: (input) => input.team,
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    const revoked = await removeMember(await actorFor(session), member!.team.id, input.userId);
    revalidatePath("/dashboard", "layout");
    // Leaving: the team's pages are no longer theirs.
    if (input.userId === session.userId) redirect("/dashboard");
    return revoked.length === 0
      ? "Removed. They made no keys in use in this team."
      : `Removed. Their ${revoked.length === 1 ? "key" : `${revoked.length} keys`} in this team stopped working just now.`;
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
  failureEvent: "team.action_failed",
  async run({ input, session, member }) {
    await deleteTeam(await actorFor(session), member!.team.id, input.confirm);
    revalidatePath("/dashboard", "layout");
    redirect("/dashboard");
  },
});
