// The PostgreSQL NOTIFY channels of the revocation fence, and their payloads.
// keyport_changes is written by triggers (the gate_instances migration); the
// other two by lib/instances.

/** "k <key id>" or "m <team id> <user id>", at the commit of any change to a key or a membership. */
export const CHANGES_CHANNEL = "keyport_changes";
/** "<fence id>": a change committed before this; every listening instance acknowledges it. */
export const FENCE_CHANNEL = "keyport_fence";
/** "<instance id> <fence id>": that instance applied every change committed before the fence. */
export const ACKS_CHANNEL = "keyport_acks";

export type Change = { kind: "key"; keyId: string } | { kind: "member"; teamId: string; userId: string };

/** A change's payload; null for one this version does not know (a newer instance's), which then drops everything. */
export function parseChange(payload: string): Change | null {
  const [kind, first, second, ...rest] = payload.split(" ");
  if (kind === "k" && first && second === undefined) return { kind: "key", keyId: first };
  if (kind === "m" && first && second && rest.length === 0) return { kind: "member", teamId: first, userId: second };
  return null;
}

export function parseAck(payload: string): { instanceId: string; fenceId: string } | null {
  const [instanceId, fenceId, ...rest] = payload.split(" ");
  return instanceId && fenceId && rest.length === 0 ? { instanceId, fenceId } : null;
}
