// Every activity event as a person reads it: one sentence each, and the kind
// the activity page filters by. One table, read by the activity list, its
// filter, its CSV export and the docs; a new event that is not here does not
// compile (the keys are the audit's own action types).
import type { AuditAction, TeamAuditAction } from "./audit";

export const ACTIVITY_KINDS = {
  keys: "Keys",
  requests: "Production key requests",
  members: "Members and invitations",
  team: "Team and policies",
  account: "Account",
} as const;

export type ActivityKind = keyof typeof ACTIVITY_KINDS;

export const ACTIVITY_EVENTS: Record<TeamAuditAction | AuditAction, { text: string; kind: ActivityKind }> = {
  "key.created": { text: "Key created", kind: "keys" },
  "key.renamed": { text: "Key renamed", kind: "keys" },
  "key.rotated": { text: "Key rotated", kind: "keys" },
  "key.revoked": { text: "Key revoked", kind: "keys" },
  "key.leaked": { text: "Key reported leaked", kind: "keys" },
  "key.decoy_used": { text: "Decoy key used", kind: "keys" },
  "key.restricted": { text: "Key access changed", kind: "keys" },
  "key.transferred": { text: "Key handed to a service account", kind: "keys" },
  "key.requested": { text: "Production key requested", kind: "requests" },
  "key.request_approved": { text: "Key request approved", kind: "requests" },
  "key.request_denied": { text: "Key request denied", kind: "requests" },
  "team.chain_started": { text: "Team activity log started", kind: "team" },
  "team.created": { text: "Team created", kind: "team" },
  "team.renamed": { text: "Team renamed", kind: "team" },
  "team.policy_changed": { text: "Team policy changed", kind: "team" },
  "team.deleted": { text: "Team deleted", kind: "team" },
  "team.member_added": { text: "Member added", kind: "members" },
  "team.role_changed": { text: "Member's role changed", kind: "members" },
  "team.member_removed": { text: "Member removed", kind: "members" },
  "team.service_account_created": { text: "Service account created", kind: "members" },
  "team.invitation_sent": { text: "Invitation sent", kind: "members" },
  "team.invitation_resent": { text: "Invitation sent again", kind: "members" },
  "team.invitation_revoked": { text: "Invitation withdrawn", kind: "members" },
  "auth.sign_in": { text: "Signed in", kind: "account" },
  "auth.sessions_ended": { text: "Sessions ended", kind: "account" },
  "auth.account_created": { text: "Account created by an operator", kind: "account" },
  "auth.password_changed": { text: "Password changed", kind: "account" },
  "auth.password_reset": { text: "Password reset from a mailed link", kind: "account" },
  "auth.two_factor_enabled": { text: "Two-factor sign-in turned on", kind: "account" },
  "auth.two_factor_disabled": { text: "Two-factor sign-in turned off", kind: "account" },
  "auth.recovery_codes_replaced": { text: "Recovery codes replaced", kind: "account" },
};

/** The sentence for an event; one this release does not know (a newer release's row) reads as such. */
export function activityText(action: string): string {
  return (ACTIVITY_EVENTS as Record<string, { text: string } | undefined>)[action]?.text ?? "Another change";
}

/** The events of one kind, for a query's `action in (...)`. */
export function actionsOfKind(kind: ActivityKind): string[] {
  return Object.entries(ACTIVITY_EVENTS)
    .filter(([, event]) => event.kind === kind)
    .map(([action]) => action);
}

/** The kinds a team's activity page offers (the account's events are on the account page). */
export const TEAM_ACTIVITY_KINDS = (Object.keys(ACTIVITY_KINDS) as ActivityKind[]).filter((kind) => kind !== "account");
