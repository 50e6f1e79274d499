"use client";

import { createContext, useContext, type ReactNode } from "react";
import type { TeamPolicy } from "@/lib/teams/policies";
import type { Role } from "@/lib/teams/roles";

// The team a page is in, for client components: its slug (to build links and
// to name the team in the forms they send) and the member's role (to disable
// what the role may not do; the server checks it again on every action).

export interface TeamContextValue {
  slug: string;
  name: string;
  role: Role;
  userId: string;
  /** The team's service accounts, which a new key may belong to. */
  serviceAccounts: { id: string; name: string }[];
  /** The team's policies, shown beside the controls they limit. */
  policy: TeamPolicy;
}

const TeamContext = createContext<TeamContextValue | null>(null);

export function TeamProvider({ value, children }: { value: TeamContextValue; children: ReactNode }) {
  return <TeamContext.Provider value={value}>{children}</TeamContext.Provider>;
}

export function useTeam(): TeamContextValue {
  const team = useContext(TeamContext);
  if (!team) throw new Error("useTeam needs <TeamProvider> (the team's layout).");
  return team;
}
