import "server-only";
import { getEnv } from "../env";
import { rateLimits } from "../env-schema";
import type { VerifiedKey } from "../keys/verify";
import { log } from "../log";
import type { MaybePromise } from "../maybe-promise";
import { ApiError } from "./api-error";
import {
  teamBucket,
  checkRateLimitPair,
  keyBucket,
  tighter,
  type RateLimitResult,
  type RateLimitStore,
} from "./rate-limit";

// Steps 11 and 12 of the gate's order: the key's own limit, then the
// team-wide limit over all of the team's keys of that environment ("account"
// in the names below: the limit was per account before teams).

export type CountedRate = RateLimitResult & { scope: "key" | "account" };

/**
 * The key's own limit. A user's can only be tighter than the environment's,
 * also after an operator lowers the default; an operator's holds as set.
 */
export function keyRateLimit(key: Pick<VerifiedKey, "restrictions" | "rateLimitByOperator">, perKey: number): number {
  const own = key.restrictions.rateLimit;
  if (own === null) return perKey;
  return key.rateLimitByOperator ? own : Math.min(own, perKey);
}

/**
 * Counts the request against its key (step 11 of the gate's order), then
 * against all of the team's keys of that environment (step 12), in one
 * round trip to the store. A request the key's own limit refuses does not use
 * the team's allowance. The result is the limit that refused, or else the
 * tighter one, for the RateLimit-* headers. A store outage is 503, or a logged
 * pass-through with RATE_LIMIT_FAIL_OPEN=1.
 */
export function countRequest(key: VerifiedKey, store: RateLimitStore): MaybePromise<CountedRate | undefined> {
  const limits = rateLimits(getEnv(), key.environment);
  let counted: ReturnType<typeof checkRateLimitPair>;
  try {
    counted = checkRateLimitPair(store, {
      key: keyBucket(key.id),
      keyLimit: keyRateLimit(key, limits.perKey),
      account: teamBucket(key.teamId, key.environment),
      accountLimit: limits.account,
    });
  } catch (error) {
    return storeDown(key, error);
  }
  return counted instanceof Promise ? counted.then(applying, (error) => storeDown(key, error)) : applying(counted);
}

/** The limit that applies: the one that refused, or else the tighter one. */
function applying(counted: Awaited<ReturnType<typeof checkRateLimitPair>>): CountedRate {
  const perKey = scoped(counted.key, "key");
  if (!counted.account) return perKey;
  const account = scoped(counted.account, "account");
  return account.allowed ? tighter(perKey, account) : account;
}

/** Field by field, not `{ ...result, scope }`: it runs for every request (lib/with-fields.ts says why). */
function scoped(
  { limit, remaining, resetSeconds, allowed }: RateLimitResult,
  scope: CountedRate["scope"],
): CountedRate {
  return { limit, remaining, resetSeconds, allowed, scope };
}

/** The store did not answer: 503, or with RATE_LIMIT_FAIL_OPEN=1 a logged pass-through. */
function storeDown(key: VerifiedKey, error: unknown): undefined {
  const reason = String((error as Error)?.message);
  if (getEnv().RATE_LIMIT_FAIL_OPEN === "1") {
    log.warn("api.rate_limit_store_down_fail_open", { key_id: key.publicId, error: reason });
    return undefined;
  }
  log.error("api.rate_limit_store_down", { key_id: key.publicId, error: reason });
  throw new ApiError("service_unavailable");
}
