const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyz";

/** A request id for logs and error bodies: "req_" and 24 random base36 characters. */
export function newRequestId(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  let id = "req_";
  for (const byte of bytes) id += ALPHABET[byte % ALPHABET.length];
  return id;
}
