// Gates for tests, built from the same factory as the app's (lib/public-api/app-gate.ts)
// with the stores a test needs; by default the app's own, without usage.
import { db } from "@/lib/db";
import { cachedKeyLookup, uncachedKeyLookup } from "@/lib/keys/key-cache";
import { databaseKeyStore } from "@/lib/keys/key-store";
import { rateLimitStore } from "@/lib/public-api/count-request";
import { asFetchHandler, createGate, type GateServices } from "@/lib/public-api/gate";
import { DISCARD_USAGE } from "@/lib/usage/event";

export function testGate(services: Partial<GateServices> = {}) {
  return asFetchHandler(
    createGate({
      keys: uncachedKeyLookup(databaseKeyStore(db)),
      rateLimits: rateLimitStore(),
      usage: DISCARD_USAGE,
      ...services,
    }),
  );
}

/** A gate with its own key cache, and the cache's hit and miss counts. */
export function cachedTestGate(services: Partial<GateServices> = {}) {
  const keys = cachedKeyLookup(databaseKeyStore(db));
  return { gate: testGate({ keys, ...services }), stats: keys.stats };
}
