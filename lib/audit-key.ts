import "server-only";
import { hkdfSync } from "node:crypto";
import { getEnv } from "./env";

// The activity chain's key (lib/audit-chain.ts): derived from ENCRYPTION_KEY
// with HKDF-SHA256 (RFC 5869) for this one purpose, so it is never the key
// that seals two-factor secrets and queued links, and both come from the one
// secret an operator already keeps apart from the database. Whoever holds
// ENCRYPTION_KEY and the database can still rewrite the chain
// (docs/security.md, "The activity log").

const PURPOSE = "keyport activity chain v1";

export function auditChainKey(): Buffer {
  const encoded = getEnv().ENCRYPTION_KEY;
  if (!encoded) throw new Error("ENCRYPTION_KEY is not set");
  return Buffer.from(hkdfSync("sha256", Buffer.from(encoded, "base64"), Buffer.alloc(0), PURPOSE, 32));
}
