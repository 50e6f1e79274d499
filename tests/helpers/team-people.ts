// What the team tests share: who acts (a person, whose role is checked, or the
// operator), a team with people in given roles, made as the app makes them,
// and a check that a change was refused on the field it names.
import { randomUUID } from "node:crypto";
import { expect } from "vitest";
import { DomainError } from "@/lib/domain-error";
import { addMember, createTeam } from "@/lib/teams/members";
import type { Role } from "@/lib/teams/roles";
import { bareAccount } from "./bare-account";

export const tag = () => randomUUID().slice(0, 8);
export const person = (who: string) => ({ userId: who, ip: null, userAgent: "Vitest", kind: "person" as const });
export const operator = (who: string) => ({ userId: who, ip: null, userAgent: "test", kind: "operator" as const });

/** A team whose first person is its owner, the others added by the operator in their roles. */
export async function teamWith(roles: Record<string, Role>) {
  const t = tag();
  const people: Record<string, { id: string; email: string }> = {};
  for (const name of Object.keys(roles)) people[name] = await bareAccount(`${name}-${t}@example.com`);
  const [first, ...rest] = Object.keys(roles);
  if (roles[first!] !== "owner") throw new Error("the first person is the owner");
  const team = await createTeam(operator(people[first!]!.id), { name: `Team ${t}` });
  for (const name of rest) await addMember(operator(people[name]!.id), team.id, people[name]!.id, roles[name]!);
  return { team, people };
}

/** The promise was refused with a DomainError whose message matches, on this field (undefined: on none). */
export async function refusedOn(promise: Promise<unknown>, field: string | undefined, message: RegExp) {
  const error = await promise.then(
    () => null,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(DomainError);
  expect((error as DomainError).message).toMatch(message);
  expect((error as DomainError).options.field).toBe(field);
}
