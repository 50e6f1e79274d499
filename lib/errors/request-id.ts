import { randomFillSync } from "node:crypto";

const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";
const ID_LENGTH = 24;

// Random bytes are drawn in blocks and handed out 24 at a time: one call into
// the system's generator per 170 ids rather than one per request (the same
// thing Node's randomUUID does with its own cache).
const pool = new Uint8Array(ID_LENGTH * 170);
// eslint-disable-next-line no-restricted-syntax -- a pool of random bytes, read in order: a memo of crypto.randomFillSync, no resource.
let offset = pool.length;

/** A request id for logs and error bodies: "req_" and 24 random base36 characters. */
export function newRequestId(): string {
  if (offset + ID_LENGTH > pool.length) {
    randomFillSync(pool);
    offset = 0;
  }
  let id = "req_";
  for (let i = offset; i < offset + ID_LENGTH; i++) id += ALPHABET[pool[i]! % ALPHABET.length];
  offset += ID_LENGTH;
  return id;
}
