// Every dashboard action on a team's keys, members, service accounts and invitations, for every role and for
// a signed-in person outside the team, through the real server actions (the
// wrapper, the session, the form), each answer asserted against the roles
// table (lib/teams/roles.ts). Because a test generated from the table passes
// when the table itself is wrong, hand-written cases below pin it.
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { createKey } from "@/lib/keys/lifecycle";
import { addMember, createTeam } from "@/lib/teams/members";
import { can, canManageKey, ROLES, serviceAccountKeyPermission, type Role } from "@/lib/teams/roles";
import {
  createKeyAction,
  renameKeyAction,
  reportLeakAction,
  revokeKeyAction,
  rotateKeyAction,
  updateRestrictionsAction,
} from "@/lib/web/actions/keys";
import {
  createServiceAccountAction,
  deleteTeamAction,
  removeMemberAction,
  renameTeamAction,
  setRoleAction,
  setTeamPolicyAction,
} from "@/lib/web/actions/teams";
import { createServiceAccount } from "@/lib/teams/service-accounts";
import { inviteMember } from "@/lib/teams/invitations";
import { decideKeyRequestAction, requestKeyAction, revealKeyRequestAction } from "@/lib/web/actions/key-requests";
import { decideKeyRequest, requestProductionKey } from "@/lib/keys/key-requests";
import { UNRESTRICTED } from "@/lib/keys/restrictions";
import { mustRequestProductionKey } from "@/lib/teams/policies";
import { inviteMemberAction, resendInvitationAction, revokeInvitationAction } from "@/lib/web/actions/invitations";
import { bareAccount } from "../helpers/bare-account";
import { actAs as signInAs, formOf as form } from "../helpers/next-request";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);
vi.mock("next/cache", () => ({ revalidatePath: () => {} }));

type Who = Role | "outsider";
const WHO: readonly Who[] = [...ROLES, "outsider"];

/** A member acting in their own name, outside the dashboard: their role is checked. */
const asPerson = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "person" as const });
const operator = (userId: string) => ({ userId, ip: null, userAgent: "test", kind: "operator" as const });

interface Team {
  id: string;
  slug: string;
  people: Record<Who, { id: string; email: string }>;
}

let team: Team;

beforeAll(async () => {
  const tag = randomUUID().slice(0, 8);
  const account = (who: string) => bareAccount(`${who}-${tag}@example.com`);
  const people = Object.fromEntries(
    await Promise.all(WHO.map(async (who) => [who, await account(who)])),
  ) as Team["people"];
  const made = await createTeam(operator(people.owner.id), { name: `Roles ${tag}` });
  for (const role of ["viewer", "developer", "admin"] as const) {
    await addMember(operator(people[role].id), made.id, people[role].id, role);
  }
  team = { id: made.id, slug: made.slug, people };
});

/** A fresh key of the team, made (by the operator) in the name of `maker`. */
async function teamKey(environment: "dev" | "prod", maker: Who) {
  const { key } = await createKey(operator(team.people[maker].id), {
    label: `${environment} of ${maker}`,
    environment,
    expiresAt: null,
    teamId: team.id,
  });
  return key.id;
}

/** What the database holds of the team: its keys, every column that a change would move, and its members. */
async function snapshot() {
  const [keys, members] = await Promise.all([
    db.apiKey.findMany({ where: { teamId: team.id }, orderBy: { publicId: "asc" } }),
    db.membership.findMany({ where: { teamId: team.id }, orderBy: { userId: "asc" } }),
  ]);
  return { keys, members };
}

const keyChanges = {
  rename: (keyId: string) => renameKeyAction(null, form({ keyId, label: "renamed" })),
  rotate: (keyId: string) => rotateKeyAction(null, form({ keyId, grace: "now" })),
  revoke: (keyId: string) => revokeKeyAction(null, form({ keyId, reason: "" })),
  restrict: (keyId: string) =>
    updateRestrictionsAction(null, form({ keyId, access: "read-only", allowedIps: "", rateLimit: "" })),
} as const;

const role = (who: Who): Role | null => (who === "outsider" ? null : who);

describe("every key action, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    for (const environment of ["dev", "prod"] as const) {
      it(`${who}: create a ${environment} key`, async () => {
        await signInAs(team.people[who].id);
        const before = await snapshot();
        const result = await createKeyAction(
          null,
          form({ team: team.slug, label: `by ${who}`, environment, expiry: "never" }),
        );
        const r = role(who);
        const allowed = r !== null && can(r, environment === "prod" ? "keys.create_prod" : "keys.create_dev");
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        if (allowed) {
          expect(result.ok && result.data.secret).toMatch(/^sk_/);
          const made = await db.apiKey.findUniqueOrThrow({ where: { publicId: result.ok ? result.data.keyId : "" } });
          expect(made).toMatchObject({ teamId: team.id, userId: team.people[who].id, environment });
        } else {
          expect(await snapshot()).toEqual(before);
          expect(result.ok ? "" : result.error).toMatch(who === "outsider" ? /not found/ : /Your role in this team/);
        }
      });

      // Each key is the owner's, and for a member other than the owner, their own too.
      for (const maker of who === "owner" || who === "outsider" ? (["owner"] as const) : (["owner", who] as const)) {
        for (const [change, act] of Object.entries(keyChanges)) {
          it(`${who}: ${change} a ${environment} key made by ${maker === who ? "themselves" : "the owner"}`, async () => {
            // An outsider "made" no key of the team: theirs is one the owner made.
            const keyId = await teamKey(environment, who === "outsider" ? "owner" : maker);
            await signInAs(team.people[who].id);
            const before = await snapshot();
            const result = await act(keyId);
            const r = role(who);
            const makerId = team.people[who === "outsider" ? "owner" : maker].id;
            const allowed =
              r !== null && canManageKey({ role: r, userId: team.people[who].id }, { environment, userId: makerId });
            expect(result.ok, JSON.stringify(result)).toBe(allowed);
            if (!allowed) {
              expect(await snapshot()).toEqual(before);
              expect(result.ok ? "" : result.error).toMatch(
                who === "outsider" ? /not found/ : /Your role in this team/,
              );
            } else {
              expect(await snapshot()).not.toEqual(before);
            }
          });
        }
      }

      it(`${who}: report a ${environment} key leaked`, async () => {
        const keyId = await teamKey(environment, "owner");
        await signInAs(team.people[who].id);
        const before = await snapshot();
        const result = await reportLeakAction(null, form({ keyId }));
        const r = role(who);
        expect(result.ok, JSON.stringify(result)).toBe(r !== null && can(r, "keys.report_leaked"));
        if (r === null) {
          expect(await snapshot()).toEqual(before);
          return;
        }
        const leaked = await db.apiKey.findUniqueOrThrow({ where: { publicId: keyId } });
        expect(leaked.revokedAt).not.toBeNull();
        // A replacement (its secret shown) only for a member who may change the key; a viewer's report revokes alone.
        const replaces = canManageKey(
          { role: r, userId: team.people[who].id },
          { environment, userId: team.people.owner.id },
        );
        expect(Boolean(result.ok && result.data.secret)).toBe(replaces);
        expect(leaked.successorId !== null).toBe(replaces);
      });
    }
  }
});

describe("every member action, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    for (const [targetRole, change] of [
      ["developer", "set-role"],
      ["developer", "remove"],
      ["owner", "set-role"],
      ["owner", "remove"],
    ] as const) {
      it(`${who}: ${change} of a ${targetRole}`, async () => {
        // A member of their own for each case, so one case's removal does not change the next.
        const target = await bareAccount(`target-${randomUUID().slice(0, 8)}@example.com`);
        await addMember(operator(target.id), team.id, target.id, targetRole);
        await signInAs(team.people[who].id);
        const before = await snapshot();
        const result =
          change === "remove"
            ? await removeMemberAction(null, form({ team: team.slug, userId: target.id }))
            : await setRoleAction(null, form({ team: team.slug, userId: target.id, role: "viewer" }));
        const r = role(who);
        const allowed = r !== null && can(r, targetRole === "owner" ? "members.manage_owners" : "members.manage");
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        const membership = await db.membership.findUnique({
          where: { teamId_userId: { teamId: team.id, userId: target.id } },
        });
        if (!allowed) {
          expect(await snapshot()).toEqual(before);
          expect(membership?.role).toBe(targetRole);
        } else {
          expect(membership?.role).toBe(change === "remove" ? undefined : "viewer");
        }
      });
    }
  }
});

describe("service accounts, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    it(`${who}: create a service account`, async () => {
      await signInAs(team.people[who].id);
      const name = `made by ${who} ${randomUUID().slice(0, 6)}`;
      const result = await createServiceAccountAction(null, form({ team: team.slug, name }));
      const r = role(who);
      const allowed = r !== null && can(r, "service_accounts.manage");
      expect(result.ok, JSON.stringify(result)).toBe(allowed);
      expect(await db.serviceAccount.count({ where: { teamId: team.id, name } })).toBe(allowed ? 1 : 0);
      if (!allowed)
        expect(result.ok ? "" : result.error).toMatch(who === "outsider" ? /not found/ : /Your role in this team/);
    });

    for (const environment of ["dev", "prod"] as const) {
      it(`${who}: create a ${environment} key for a service account`, async () => {
        const bot = await createServiceAccount(operator(""), team.id, `bot ${randomUUID().slice(0, 8)}`);
        await signInAs(team.people[who].id);
        const before = await snapshot();
        const result = await createKeyAction(
          null,
          form({ team: team.slug, label: `for bot by ${who}`, environment, expiry: "never", serviceAccount: bot.id }),
        );
        const r = role(who);
        const allowed =
          r !== null &&
          can(r, environment === "prod" ? "keys.create_prod" : "keys.create_dev") &&
          can(r, serviceAccountKeyPermission(environment));
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        if (allowed) {
          const made = await db.apiKey.findUniqueOrThrow({ where: { publicId: result.ok ? result.data.keyId : "" } });
          expect(made).toMatchObject({ teamId: team.id, serviceAccountId: bot.id, environment });
        } else {
          expect(await snapshot()).toEqual(before);
        }
      });

      it(`${who}: rotate a service account's ${environment} key that they made`, async () => {
        const bot = await createServiceAccount(operator(""), team.id, `bot ${randomUUID().slice(0, 8)}`);
        const maker = who === "outsider" ? "owner" : who;
        const { key } = await createKey(operator(team.people[maker].id), {
          label: `bot's ${environment}`,
          environment,
          expiresAt: null,
          teamId: team.id,
          serviceAccountId: bot.id,
        });
        await signInAs(team.people[who].id);
        const result = await keyChanges.rotate(key.id);
        const r = role(who);
        const allowed =
          r !== null &&
          canManageKey(
            { role: r, userId: team.people[who].id },
            { environment, userId: team.people[maker].id, serviceAccountId: bot.id },
          );
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
      });
    }

    it(`${who}: remove a developer, handing their production key to a service account`, async () => {
      const bot = await createServiceAccount(operator(""), team.id, `bot ${randomUUID().slice(0, 8)}`);
      const target = await bareAccount(`handing-${randomUUID().slice(0, 8)}@example.com`);
      await addMember(operator(target.id), team.id, target.id, "developer");
      const { key } = await createKey(operator(target.id), {
        label: "theirs",
        environment: "prod",
        expiresAt: null,
        teamId: team.id,
      });
      await signInAs(team.people[who].id);
      const result = await removeMemberAction(
        null,
        form({ team: team.slug, userId: target.id, [`handover.${key.id}`]: `keep:${bot.id}` }),
      );
      const r = role(who);
      const allowed = r !== null && can(r, "members.manage") && can(r, serviceAccountKeyPermission("prod"));
      expect(result.ok, JSON.stringify(result)).toBe(allowed);
      const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } });
      expect([row.serviceAccountId, row.revokedAt]).toEqual(allowed ? [bot.id, null] : [null, null]);
      expect(await db.membership.count({ where: { teamId: team.id, userId: target.id } })).toBe(allowed ? 0 : 1);
    });
  }
});

describe("invitations, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    for (const invited of ["developer", "owner"] as const) {
      it(`${who}: invite someone as ${invited}`, async () => {
        await signInAs(team.people[who].id);
        const email = `invited-${randomUUID().slice(0, 8)}@example.com`;
        const result = await inviteMemberAction(null, form({ team: team.slug, email, role: invited }));
        const r = role(who);
        const allowed = r !== null && can(r, invited === "owner" ? "members.manage_owners" : "members.manage");
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        expect(await db.invitation.count({ where: { teamId: team.id, email } })).toBe(allowed ? 1 : 0);
        if (!allowed)
          expect(result.ok ? "" : result.error).toMatch(who === "outsider" ? /not found/ : /Your role in this team/);
      });
    }

    for (const [change, act] of [
      ["send again", resendInvitationAction],
      ["withdraw", revokeInvitationAction],
    ] as const) {
      it(`${who}: ${change} a developer's invitation`, async () => {
        const made = await inviteMember(operator(""), team.id, {
          email: `waiting-${randomUUID().slice(0, 8)}@example.com`,
          role: "developer",
        });
        const before = await db.invitation.findUniqueOrThrow({ where: { id: made.id } });
        await signInAs(team.people[who].id);
        const result = await act(null, form({ team: team.slug, invitation: made.id }));
        const r = role(who);
        const allowed = r !== null && can(r, "members.manage");
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        const after = await db.invitation.findUniqueOrThrow({ where: { id: made.id } });
        if (allowed) expect(after).not.toEqual(before);
        else expect(after).toEqual(before);
      });
    }
  }
});

describe("renaming the team, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    it(`${who}: rename the team`, async () => {
      await signInAs(team.people[who].id);
      const before = await db.team.findUniqueOrThrow({ where: { id: team.id } });
      const result = await renameTeamAction(null, form({ team: team.slug, name: `Renamed by ${who}` }));
      const r = role(who);
      const allowed = r !== null && can(r, "team.rename");
      expect(result.ok, JSON.stringify(result)).toBe(allowed);
      const after = await db.team.findUniqueOrThrow({ where: { id: team.id } });
      expect(after.slug).toBe(before.slug); // a slug never changes
      expect(after.name).toBe(allowed ? `Renamed by ${who}` : before.name);
      if (!allowed)
        expect(result.ok ? "" : result.error).toMatch(who === "outsider" ? /not found/ : /Your role in this team/);
    });
  }
});

describe("setting the team's policies, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    it(`${who}: set the team's policies`, async () => {
      await signInAs(team.people[who].id);
      const before = await db.team.findUniqueOrThrow({ where: { id: team.id } });
      // Each case sets a lifetime of its own, so an allowed one visibly moves it.
      const days = String(10 + WHO.indexOf(who));
      const result = await setTeamPolicyAction(
        null,
        form({ team: team.slug, productionKeys: "developers", maxLifetimeDaysProd: "", maxLifetimeDaysDev: days }),
      );
      const r = role(who);
      const allowed = r !== null && can(r, "team.policies");
      expect(result.ok, JSON.stringify(result)).toBe(allowed);
      const after = await db.team.findUniqueOrThrow({ where: { id: team.id } });
      expect(after.maxKeyDaysDev).toBe(allowed ? Number(days) : before.maxKeyDaysDev);
      if (!allowed)
        expect(result.ok ? "" : result.error).toMatch(who === "outsider" ? /not found/ : /Your role in this team/);
      // The team's other tests create development keys with no expiry: leave it without a maximum.
      await db.team.update({ where: { id: team.id }, data: { maxKeyDaysDev: null } });
    });
  }
});

describe("requests for production keys, for every role and for someone outside the team", () => {
  // Under "developers with approval" (lib/keys/key-requests.ts); put back after each case, since the other cases
  // make developers' production keys.
  const underApproval = async (work: () => Promise<void>) => {
    await db.team.update({ where: { id: team.id }, data: { productionKeys: "approval" } });
    try {
      await work();
    } finally {
      await db.team.update({ where: { id: team.id }, data: { productionKeys: "developers" } });
    }
  };
  const asked = () =>
    requestProductionKey(asPerson(team.people.developer.id), team.id, {
      label: "asked",
      expiresAt: null,
      restrictions: UNRESTRICTED,
      reason: "for the roles test",
    });
  const refusal = (who: Who) =>
    who === "outsider" ? /not found/ : /Your role in this team|directly|Only the developer/;

  for (const who of WHO) {
    it(`${who}: ask for a production key`, () =>
      underApproval(async () => {
        await signInAs(team.people[who].id);
        const before = await db.keyRequest.count({ where: { teamId: team.id } });
        const result = await requestKeyAction(
          null,
          form({ team: team.slug, label: `asked by ${who}`, environment: "prod", expiry: "90", reason: "why" }),
        );
        const r = role(who);
        const allowed = r !== null && mustRequestProductionKey("approval", r);
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        expect(await db.keyRequest.count({ where: { teamId: team.id } })).toBe(before + (allowed ? 1 : 0));
        if (!allowed) expect(result.ok ? "" : result.error).toMatch(refusal(who));
      }));

    it(`${who}: approve a request`, () =>
      underApproval(async () => {
        const { id: requestId } = await asked();
        await signInAs(team.people[who].id);
        const result = await decideKeyRequestAction(null, form({ team: team.slug, requestId, decision: "approve" }));
        const r = role(who);
        // Never their own: the developer asked.
        const allowed = r !== null && can(r, "keys.approve_requests") && who !== "developer";
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        const row = await db.keyRequest.findUniqueOrThrow({ where: { publicId: requestId } });
        expect(row.status).toBe(allowed ? "approved" : "pending");
        if (!allowed) expect(result.ok ? "" : result.error).toMatch(refusal(who));
      }));

    it(`${who}: reveal an approved request's key`, () =>
      underApproval(async () => {
        const { id: requestId } = await asked();
        await decideKeyRequest(asPerson(team.people.admin.id), team.id, requestId, { approve: true, comment: null });
        await signInAs(team.people[who].id);
        const result = await revealKeyRequestAction(null, form({ team: team.slug, requestId }));
        // Only the one who asked.
        const allowed = who === "developer";
        expect(result.ok, JSON.stringify(result)).toBe(allowed);
        const row = await db.keyRequest.findUniqueOrThrow({ where: { publicId: requestId } });
        expect(row.status).toBe(allowed ? "revealed" : "approved");
        if (!allowed) expect(result.ok ? "" : result.error).toMatch(refusal(who));
      }));
  }
});

describe("deleting the team, for every role and for someone outside the team", () => {
  for (const who of WHO) {
    it(`${who}: delete the team`, async () => {
      // A team of its own for each case (the allowed case deletes it), with the same members.
      const made = await createTeam(operator(team.people.owner.id), { name: `Doomed ${who}` });
      for (const role of ["viewer", "developer", "admin"] as const) {
        await addMember(operator(team.people[role].id), made.id, team.people[role].id, role);
      }
      const { key } = await createKey(operator(team.people.developer.id), {
        label: "in a doomed team",
        environment: "dev",
        expiresAt: null,
        teamId: made.id,
      });
      await signInAs(team.people[who].id);
      // Done, the action redirects (the test's redirect() throws, as Next's does); refused, it answers.
      const result = await deleteTeamAction(null, form({ team: made.slug, confirm: made.slug })).catch(
        (error: Error) => error.message,
      );
      const r = role(who);
      const allowed = r !== null && can(r, "team.delete");
      const members = await db.membership.count({ where: { teamId: made.id } });
      const revokedAt = (await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id } })).revokedAt;
      if (allowed) {
        // The action ends in a redirect to the dashboard; the team is gone from everyone, its key stopped.
        expect(result).toBe("NEXT_REDIRECT /dashboard");
        expect(members).toBe(0);
        expect(revokedAt).not.toBeNull();
      } else {
        expect(typeof result === "string" || result.ok ? "" : result.error).toMatch(
          who === "outsider" ? /not found/ : /Your role in this team/,
        );
        expect(members).toBe(4);
        expect(revokedAt).toBeNull();
      }
    });
  }
});

describe("the table, pinned by hand", () => {
  it("a viewer cannot create, rotate or revoke, and never sees a secret", () => {
    expect(can("viewer", "keys.create_dev")).toBe(false);
    expect(can("viewer", "keys.create_prod")).toBe(false);
    for (const environment of ["dev", "prod"] as const) {
      expect(canManageKey({ role: "viewer", userId: "v" }, { environment, userId: "v" })).toBe(false);
    }
    expect(can("viewer", "keys.report_leaked")).toBe(true);
  });

  it("a developer manages development keys and their own production keys, not others' nor members", () => {
    expect(canManageKey({ role: "developer", userId: "d" }, { environment: "dev", userId: "o" })).toBe(true);
    expect(canManageKey({ role: "developer", userId: "d" }, { environment: "prod", userId: "d" })).toBe(true);
    expect(canManageKey({ role: "developer", userId: "d" }, { environment: "prod", userId: "o" })).toBe(false);
    expect(can("developer", "members.manage")).toBe(false);
  });

  it("a service account's production key is no one's own: a developer who made it may not change it, an admin may", () => {
    const key = { environment: "prod", userId: "d", serviceAccountId: "sa" } as const;
    expect(canManageKey({ role: "developer", userId: "d" }, key)).toBe(false);
    expect(canManageKey({ role: "admin", userId: "a" }, key)).toBe(true);
    expect(canManageKey({ role: "developer", userId: "d" }, { ...key, environment: "dev" })).toBe(true);
    expect(ROLES.filter((r) => can(r, "service_accounts.manage"))).toEqual(["admin", "owner"]);
    expect(serviceAccountKeyPermission("prod")).toBe("keys.manage_any_prod");
  });

  it("admins and owners set the team's policies; developers and viewers do not", () => {
    expect(ROLES.filter((r) => can(r, "team.policies"))).toEqual(["admin", "owner"]);
  });

  it("admins and owners decide requests for production keys; under approval only a developer asks", () => {
    expect(ROLES.filter((r) => can(r, "keys.approve_requests"))).toEqual(["admin", "owner"]);
    expect(ROLES.filter((r) => mustRequestProductionKey("approval", r))).toEqual(["developer"]);
    expect(ROLES.filter((r) => mustRequestProductionKey("developers", r))).toEqual([]);
  });

  it("an admin manages every key and members, but not owners; only an owner renames or deletes the team", () => {
    expect(canManageKey({ role: "admin", userId: "a" }, { environment: "prod", userId: "o" })).toBe(true);
    expect(can("admin", "members.manage")).toBe(true);
    expect(can("admin", "members.manage_owners")).toBe(false);
    expect(can("admin", "team.rename")).toBe(false);
    expect(can("owner", "members.manage_owners") && can("owner", "team.delete")).toBe(true);
  });
});
