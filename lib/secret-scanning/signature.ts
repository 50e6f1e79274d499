import "server-only";
import { verify, type KeyObject } from "node:crypto";
import { getEnv } from "../env";
import { parsePublicKeys } from "./public-keys";

// GitHub signs each secret-scanning report with ECDSA P-256 over SHA-256 of
// the raw body: Github-Public-Key-Identifier names the key,
// Github-Public-Key-Signature carries the DER signature in base64. The body is
// checked exactly as it arrived, never re-serialised.

// eslint-disable-next-line no-restricted-syntax -- a memo of the parsed keys for the configured document.
let cached: { document: string; keys: Map<string, KeyObject> } | undefined;

function configuredKeys(): Map<string, KeyObject> {
  const document = getEnv().SECRET_SCANNING_PUBLIC_KEYS;
  if (document === undefined) return new Map();
  if (cached?.document !== document) cached = { document, keys: parsePublicKeys(document) };
  return cached.keys;
}

/** Whether the raw body was signed by a configured key, as the two headers say. */
export function signedByGitHub(body: Uint8Array, headers: Headers): boolean {
  const identifier = headers.get("github-public-key-identifier");
  const signature = headers.get("github-public-key-signature");
  if (!identifier || !signature || signature.length > 512) return false;
  const key = configuredKeys().get(identifier);
  if (!key) return false;
  try {
    return verify("sha256", body, { key, dsaEncoding: "der" }, Buffer.from(signature, "base64"));
  } catch {
    return false; // a signature that is not DER
  }
}
