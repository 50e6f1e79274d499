import "server-only";
import { OPERATOR_USER_AGENT } from "./operator-agent";
import { parseArgs } from "node:util";
import type { Readable, Writable } from "node:stream";
import type { z } from "zod";
import type { Actor } from "../audit";
import { db } from "../db";
import { confirmChange, type Confirmation } from "../instances/confirm-change";

// What every operator command shares: its flags, its streams, its two ways to
// fail and the actor its changes are audited as.

export interface Io {
  stdin: Readable;
  stdout: Writable;
  stderr: Writable;
}

/** Bad arguments: exit 2 with the usage. */
export class UsageError extends Error {}
/** An unknown user or key: exit 1. */
export class NotFoundError extends Error {}
/** A check that found something wrong (audit:verify): exit 1, with what it found. */
export class CheckFailed extends Error {}

/** Every change the CLI makes is audited as the key's owner, marked as the operator's. */
export const OPERATOR = (userId: string): Actor => ({
  userId,
  ip: null,
  userAgent: OPERATOR_USER_AGENT,
  kind: "operator",
});

/** One set of flags for every command; strict, so a misspelt flag is a usage error rather than ignored. */
export function parseFlags(args: string[]) {
  return parseArgs({
    args,
    strict: true,
    options: {
      email: { type: "string" },
      env: { type: "string" },
      label: { type: "string" },
      "expires-in-days": { type: "string" },
      scopes: { type: "string" },
      "allow-ip": { type: "string" },
      "rate-limit": { type: "string" },
      id: { type: "string" },
      since: { type: "string" },
      stdin: { type: "boolean" },
      file: { type: "string" },
      team: { type: "string" },
      name: { type: "string" },
      owner: { type: "string" },
      slug: { type: "string" },
      role: { type: "string" },
      "service-account": { type: "string" },
      "transfer-to": { type: "string" },
      "production-keys": { type: "string" },
      "max-lifetime-days-prod": { type: "string" },
      "max-lifetime-days-dev": { type: "string" },
      "require-two-factor": { type: "string" },
      "prod-default-scopes": { type: "string" },
      "prod-default-allow-ip": { type: "string" },
      "override-policy": { type: "boolean" },
      to: { type: "string" },
      from: { type: "string" },
      force: { type: "boolean" },
    },
  }).values;
}

export type Flags = ReturnType<typeof parseFlags>;

export async function readLine(stdin: Readable): Promise<string> {
  let data = "";
  for await (const chunk of stdin) {
    data += String(chunk);
    if (data.includes("\n")) break;
  }
  return data.split(/\r?\n/)[0] ?? "";
}

export function required<T>(schema: z.ZodType<T>, value: unknown, flag: string): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new UsageError(`--${flag}: ${parsed.error.issues[0]?.message ?? "invalid"}`);
  return parsed.data;
}

export async function userByEmail(email: string) {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true } });
  if (!user) throw new NotFoundError(`No user with the email ${email}.`);
  return user;
}

/**
 * After a change that may refuse a key: waits until every instance serving the API has applied it
 * (lib/instances/confirm-change.ts), and answers what to print beside the command's output (nothing on SQLite).
 */
export async function confirmedEverywhere(): Promise<{ instances?: Confirmation["instances"] }> {
  const confirmed = await confirmChange();
  return confirmed ? { instances: confirmed.instances } : {};
}
