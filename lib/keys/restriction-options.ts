import "server-only";
import { getEnv } from "../env";
import { rateLimits } from "../env-schema";
import type { Scope } from "./scopes";
import type { KeyEnvironment } from "./format";

/** What the restriction forms show beside their fields, worked out on the server (no registry in the browser). */
export interface RestrictionOptions {
  routesByScope: Record<Scope, string[]>;
  /** The environment's per-key limit: the most a user may set, and what an empty field means. */
  defaultRateLimits: Record<KeyEnvironment, number>;
}

/** `routesByScope`: each scope's routes, from the public API's registry (`routesByScope()` in lib/public-api/routes.ts). */
export function restrictionOptions(routesByScope: Record<Scope, string[]>): RestrictionOptions {
  const env = getEnv();
  return {
    routesByScope,
    defaultRateLimits: { dev: rateLimits(env, "dev").perKey, prod: rateLimits(env, "prod").perKey },
  };
}
