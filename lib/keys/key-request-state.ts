// Where a request for a production key stands (lib/keys/key-requests.ts), read
// from its stored status and its times: a request waits KEY_REQUEST_DAYS for a
// decision, and an approved one waits as long again to be revealed; then it
// has expired, without any job having to mark it. Pure: no database.
import { KEY_REQUEST_DAYS } from "../teams/policies";

export type KeyRequestState = "pending" | "approved" | "denied" | "revealed" | "expired";

const WAIT_MS = KEY_REQUEST_DAYS * 86_400_000;

/** The moment a pending request stops waiting for a decision. */
export const decisionDeadline = (createdAt: Date) => new Date(createdAt.getTime() + WAIT_MS);
/** Requests made after this moment are still pending, if undecided. */
export const decisionCutoff = (now: Date) => new Date(now.getTime() - WAIT_MS);
/** The moment an approved request can no longer be revealed. */
export const revealDeadline = (decidedAt: Date) => new Date(decidedAt.getTime() + WAIT_MS);

export function keyRequestState(
  row: { status: string; createdAt: Date; decidedAt: Date | null },
  now: Date,
): KeyRequestState {
  if (row.status === "pending") return now < decisionDeadline(row.createdAt) ? "pending" : "expired";
  if (row.status === "approved") return row.decidedAt && now < revealDeadline(row.decidedAt) ? "approved" : "expired";
  if (row.status === "denied" || row.status === "revealed") return row.status;
  // Written only by lib/keys/key-requests.ts; anything else is a fault, never a permission.
  throw new Error(`unknown key request status: ${row.status}`);
}

/** Why a request that is no longer pending cannot be decided. */
export function decideRefusal(status: string): string {
  if (status === "denied") return "This request was denied already.";
  if (status === "pending")
    return `This request expired: it waited ${KEY_REQUEST_DAYS} days without a decision. The developer can ask again.`;
  return "This request was approved already.";
}

/** Why a request in this state cannot be revealed (an approved one can). */
export const REVEAL_REFUSAL: Record<Exclude<KeyRequestState, "approved">, string> = {
  pending: "This request waits for an admin of the team to approve it.",
  denied: "This request was denied: no key was made.",
  revealed: "This key was revealed already: its secret was shown once and is not kept. If it was lost, rotate the key.",
  expired: `This request expired: a request waits ${KEY_REQUEST_DAYS} days for a decision, and an approved key as long to be revealed. Ask again.`,
};
