import { createPublicKey, type KeyObject } from "node:crypto";
import { z } from "zod";

// GitHub's secret-scanning public keys, in the shape GitHub publishes them
// (https://api.github.com/meta/public_keys/secret_scanning): each signs the
// partner reports it sends us. The app has no network to fetch them, so the
// operator sets SECRET_SCANNING_PUBLIC_KEYS to that document (docs/security.md,
// "Leak response", says how to refresh it).

const publicKeysSchema = z.object({
  public_keys: z
    .array(
      z.object({
        key_identifier: z.string().min(1).max(200),
        key: z.string().min(1).max(4_000),
        is_current: z.boolean(),
      }),
    )
    .max(50),
});

/** The configured keys by identifier, as crypto key objects; throws a readable error for a bad document. */
export function parsePublicKeys(document: string): Map<string, KeyObject> {
  let json: unknown;
  try {
    json = JSON.parse(document);
  } catch {
    throw new Error("is not JSON");
  }
  const parsed = publicKeysSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`is not GitHub's public key document (${issue?.path.join(".") || "root"}: ${issue?.message})`);
  }
  const keys = new Map<string, KeyObject>();
  for (const entry of parsed.data.public_keys) {
    let key: KeyObject;
    try {
      key = createPublicKey(entry.key);
    } catch {
      throw new Error(`holds a key that is not a PEM public key (${entry.key_identifier})`);
    }
    if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
      throw new Error(`holds a key that is not ECDSA P-256 (${entry.key_identifier})`);
    }
    keys.set(entry.key_identifier, key);
  }
  return keys;
}
