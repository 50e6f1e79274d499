// The roles of a team and what each may do: the one table that the domain's
// checks (lib/teams, lib/keys/lifecycle.ts), the dashboard's disabled
// controls, the docs' permission matrix and a generated test all read.
// Pure data and two functions: no database, no framework.

export const ROLES = ["viewer", "developer", "admin", "owner"] as const;
export type Role = (typeof ROLES)[number];

/** What a member may be allowed to do, each with the sentence the docs' matrix shows. */
export const PERMISSIONS = {
  "keys.view": "See the team's keys: label, fragment, status, usage and activity (never a secret)",
  "keys.report_leaked": "Report a key leaked (a fresh sign-in for a production key)",
  "keys.create_dev": "Create development keys",
  "keys.create_prod": "Create production keys",
  "keys.manage_dev": "Rename, rotate, revoke and edit the access of any development key",
  "keys.manage_own_prod": "Rename, rotate, revoke and edit the access of production keys they created",
  "keys.manage_any_prod":
    "Rename, rotate, revoke and edit the access of any production key, and create production keys for service accounts",
  "keys.approve_requests":
    "Approve or deny a developer’s request for a production key (under the policy “Developers with approval”)",
  "activity.origin":
    "See where each change came from (address and browser), and download the activity log with its hashes",
  "members.view": "See the team's members and their roles",
  "members.manage": "Add and remove members, and change roles, other than owners",
  "service_accounts.manage": "Create service accounts, which own keys that no departure revokes",
  "team.policies": "Set the team's policies: who creates production keys, and the longest a key may live",
  "members.manage_owners": "Add, remove, promote and demote owners",
  "team.rename": "Rename the team",
  "team.delete": "Delete the team",
} as const;
export type Permission = keyof typeof PERMISSIONS;

const VIEWER: readonly Permission[] = ["keys.view", "keys.report_leaked", "members.view"];
const DEVELOPER: readonly Permission[] = [
  ...VIEWER,
  "keys.create_dev",
  "keys.create_prod",
  "keys.manage_dev",
  "keys.manage_own_prod",
];
const ADMIN: readonly Permission[] = [
  ...DEVELOPER,
  "keys.manage_any_prod",
  "keys.approve_requests",
  "activity.origin",
  "members.manage",
  "service_accounts.manage",
  "team.policies",
];
const OWNER: readonly Permission[] = [...ADMIN, "members.manage_owners", "team.rename", "team.delete"];

/** The table: each role's permissions. */
export const ROLE_PERMISSIONS: Readonly<Record<Role, ReadonlySet<Permission>>> = {
  viewer: new Set(VIEWER),
  developer: new Set(DEVELOPER),
  admin: new Set(ADMIN),
  owner: new Set(OWNER),
};

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (ROLES as readonly string[]).includes(value);
}

export function can(role: Role, permission: Permission): boolean {
  return ROLE_PERMISSIONS[role].has(permission);
}

/**
 * Whether a member may change a key (rename, rotate, revoke, edit its access): by its environment and maker. A
 * service account's production key is no one's own: it takes keys.manage_any_prod, whoever made it.
 */
export function canManageKey(
  member: { role: Role; userId: string },
  key: { environment: "dev" | "prod"; userId: string; serviceAccountId?: string | null },
): boolean {
  if (key.environment === "dev") return can(member.role, "keys.manage_dev");
  if (can(member.role, "keys.manage_any_prod")) return true;
  return !key.serviceAccountId && key.userId === member.userId && can(member.role, "keys.manage_own_prod");
}

/** What a member needs to give a service account a key of this environment, by creating or by handing one over. */
export function serviceAccountKeyPermission(environment: "dev" | "prod"): Permission {
  return environment === "dev" ? "keys.create_dev" : "keys.manage_any_prod";
}
