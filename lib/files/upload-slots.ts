import { DomainError } from "../domain-error";

// Uploads in progress per key, in this instance: each holds a socket and a
// temporary file, so one key cannot open many at once.

export interface UploadSlots {
  /** Runs `work` in one of the key's `limit` slots, or refuses with 429 when all are taken. */
  run<T>(keyId: string, limit: number, work: () => Promise<T>): Promise<T>;
}

/** The instance's slots (the runtime holds them: lib/runtime/create-runtime.ts). */
export function createUploadSlots(): UploadSlots {
  const inProgress = new Map<string, number>();
  return {
    async run(keyId, limit, work) {
      const running = inProgress.get(keyId) ?? 0;
      if (running >= limit) {
        throw new DomainError(
          "rate_limited",
          `This key already has ${limit} uploads in progress. Wait for one to finish, then try again.`,
          { retryAfterSeconds: 1 },
        );
      }
      inProgress.set(keyId, running + 1);
      try {
        return await work();
      } finally {
        const left = (inProgress.get(keyId) ?? 1) - 1;
        if (left > 0) inProgress.set(keyId, left);
        else inProgress.delete(keyId);
      }
    },
  };
}
