import "server-only";
import { databaseTarget, sqliteFile } from "../db-target";
import { getEnv } from "../env";
import { gatePool } from "../gate-pool";
import { cachedKeyLookup } from "../keys/key-cache";
import { postgresKeyStore, sqliteKeyStore, type KeyStore } from "../keys/key-store";
import type { UsageSink } from "../usage/event";
import { usageBuffer } from "../usage/usage-sink";
import { rateLimitStore } from "./count-request";
import type { ApiAnswer } from "../http/text-reply";
import type { MaybePromise } from "../maybe-promise";
import { asFetchHandler, createGate, type GateHandler, type GateServices, type PublicApiHandler } from "./gate";

// The gate the app serves, with the process's stores: keys cached in this
// instance (and checked against the database on every request), the rate-limit
// store the configuration names, and the usage buffer.

/** The process's usage buffer, created on the first request (never at build time, which imports this module). */
const bufferedUsage: UsageSink = { record: (event) => usageBuffer().record(event) };

/** The database's keys, through the gate's own prepared statements (lib/keys/key-store.ts). */
export function appKeyStore(): KeyStore {
  const target = databaseTarget(getEnv().DATABASE_URL, process.cwd());
  return target.provider === "sqlite"
    ? sqliteKeyStore(sqliteFile(target.url, process.cwd()))
    : postgresKeyStore(gatePool());
}

/** The stores the app's gate is built with; the benchmark builds its variants from them too. */
export function appGateServices(): GateServices {
  return { keys: cachedKeyLookup(appKeyStore()), rateLimits: rateLimitStore(), usage: bufferedUsage };
}

let gate: GateHandler | undefined;

/** The one entry point of the public API: server.mjs hands it every request under /api/v1 and /api/v1beta. */
export function answerPublicRequest(request: Request): MaybePromise<ApiAnswer> {
  gate ??= createGate(appGateServices());
  return gate(request);
}

/** The same, answering with a standard Response: for tests and Next's route files. */
export const handlePublicRequest: PublicApiHandler = asFetchHandler(answerPublicRequest);

/**
 * The exports of the route files under app/api/v1 and app/api/v1beta. server.mjs
 * never hands these paths to Next; the files stay so that the benchmark can
 * measure the same gate through Next's router (`next start`) beside the path
 * the app serves.
 */
export const publicApiMethods = {
  GET: handlePublicRequest,
  HEAD: handlePublicRequest,
  POST: handlePublicRequest,
  PUT: handlePublicRequest,
  PATCH: handlePublicRequest,
  DELETE: handlePublicRequest,
  OPTIONS: handlePublicRequest,
};
