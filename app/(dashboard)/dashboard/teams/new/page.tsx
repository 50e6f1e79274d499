import type { Metadata } from "next";
import { CreateTeamForm } from "@/components/teams/create-team-form";
import { requirePageSession } from "@/lib/web/guard";
import { OWNED_TEAMS_MAX } from "@/lib/teams/members";

export const metadata: Metadata = { title: "New team" };

// GET /dashboard/teams/new: make a team, with the person as its owner.
export default async function NewTeamPage() {
  await requirePageSession("/dashboard/teams/new");
  return (
    <>
      <h1 className="text-2xl font-bold" tabIndex={-1}>
        New team
      </h1>
      <p className="mt-2 text-zinc-700 dark:text-zinc-300">
        A team owns its keys, usage and activity; its members share them by role. You can own up to {OWNED_TEAMS_MAX}{" "}
        teams besides your personal one.
      </p>
      <CreateTeamForm />
    </>
  );
}
