// The roles table (lib/teams/roles.ts). A test generated from the table passes
// when the table itself is wrong, so these cases are written by hand: they pin
// what the teams issue says each role may and may not do.
import { describe, expect, it } from "vitest";
import { can, canManageKey, isRole, PERMISSIONS, ROLE_PERMISSIONS, ROLES, type Permission } from "@/lib/teams/roles";

const me = "user_me";
const other = "user_other";

describe("the roles table", () => {
  it("has four roles, each a superset of the one before", () => {
    expect(ROLES).toEqual(["viewer", "developer", "admin", "owner"]);
    for (let i = 1; i < ROLES.length; i++) {
      for (const permission of ROLE_PERMISSIONS[ROLES[i - 1]!]) expect(can(ROLES[i]!, permission)).toBe(true);
    }
    // The control: the table is not everything for everyone.
    expect(ROLE_PERMISSIONS.viewer.size).toBeLessThan(Object.keys(PERMISSIONS).length);
  });

  it("lets a viewer see keys and report one leaked, and nothing else on keys", () => {
    expect(can("viewer", "keys.view")).toBe(true);
    expect(can("viewer", "keys.report_leaked")).toBe(true);
    for (const denied of ["keys.create_dev", "keys.create_prod", "keys.manage_dev", "keys.manage_own_prod"] as const) {
      expect(can("viewer", denied), denied).toBe(false);
    }
    expect(canManageKey({ role: "viewer", userId: me }, { environment: "dev", userId: me })).toBe(false);
    expect(canManageKey({ role: "viewer", userId: me }, { environment: "prod", userId: me })).toBe(false);
  });

  it("lets a developer create both environments, manage any development key and only their own production keys", () => {
    expect(can("developer", "keys.create_dev") && can("developer", "keys.create_prod")).toBe(true);
    expect(canManageKey({ role: "developer", userId: me }, { environment: "dev", userId: other })).toBe(true);
    expect(canManageKey({ role: "developer", userId: me }, { environment: "prod", userId: me })).toBe(true);
    expect(canManageKey({ role: "developer", userId: me }, { environment: "prod", userId: other })).toBe(false);
  });

  it("does not let a developer change members, nor an admin change owners or the team", () => {
    expect(can("developer", "members.manage")).toBe(false);
    expect(can("admin", "members.manage")).toBe(true);
    expect(can("admin", "members.manage_owners")).toBe(false);
    expect(can("admin", "team.rename") || can("admin", "team.delete")).toBe(false);
    expect(canManageKey({ role: "admin", userId: me }, { environment: "prod", userId: other })).toBe(true);
  });

  it("shows where changes came from, and the chain's download, to admins and owners only", () => {
    expect(can("viewer", "activity.origin") || can("developer", "activity.origin")).toBe(false);
    expect(can("admin", "activity.origin") && can("owner", "activity.origin")).toBe(true);
  });

  it("lets an owner do everything", () => {
    for (const permission of Object.keys(PERMISSIONS) as Permission[]) expect(can("owner", permission)).toBe(true);
  });

  it("knows its roles and no other", () => {
    expect(ROLES.every(isRole)).toBe(true);
    for (const value of ["Owner", "superadmin", "", null, 3]) expect(isRole(value)).toBe(false);
  });
});
