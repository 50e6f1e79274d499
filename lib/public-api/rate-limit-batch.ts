import { windowEnd, type CounterPair, type PairCounts, type RateLimitStore } from "./rate-limit";

// Shared rate-limit counters without a round trip per request: the requests
// of one event-loop turn are counted in one call to the store (one statement
// on PostgreSQL, one script on Redis), which adds each counter's requests at
// once and answers its new total. The counts stay exact, across instances too:
// the store adds atomically, and each request of the batch takes its own place
// in the counter's new range, in the order the requests came. So a team never
// exceeds its limit, with any number of instances (docs/public-api.md, "Rate
// limits"); what batching changes is the number of round trips, one per turn
// instead of one per request, and a request waits at most for the end of the
// turn it arrived in.

/** What a batch asks the store: the keys' adds with their limits, each key's account. */
export interface BatchRequest {
  keys: { counter: string; count: number; limit: number; account: string }[];
}

/** The new totals: each key's counter, and each account's (for accounts that took any request). */
export interface BatchTotals {
  keys: Map<string, number>;
  accounts: Map<string, number>;
}

/** A store that counts a whole batch in one round trip. */
export interface BatchCounterStore {
  addBatch(request: BatchRequest, windowEndsAt: number, windowMs: number): Promise<BatchTotals>;
}

/**
 * How many of a key's `count` requests its limit lets through, given its total after adding them: the ones whose
 * place in the counter is within the limit. The stores compute the same in SQL and Lua.
 */
export const admittedOf = (total: number, count: number, limit: number) =>
  Math.max(0, Math.min(count, limit - (total - count)));

interface Waiting {
  pair: CounterPair;
  resolve(counts: PairCounts): void;
  reject(error: unknown): void;
}

/**
 * The batch's pairs, one entry per key in the order first seen. Requests of one key in one batch may carry two limits
 * (a change to the key's limit applied between them): the batch counts them all against the lower one, and so does
 * answer(), so the team's count and each request's verdict always agree (an attack review: with each request judged
 * by its own limit, requests over the team's limit were handed team places of their own).
 */
function batchRequest(waiting: Waiting[]): BatchRequest {
  const keys = new Map<string, BatchRequest["keys"][number]>();
  for (const { pair } of waiting) {
    const entry = keys.get(pair.key);
    if (!entry) keys.set(pair.key, { counter: pair.key, count: 1, limit: pair.keyLimit, account: pair.account });
    else {
      entry.count++;
      entry.limit = Math.min(entry.limit, pair.keyLimit);
    }
  }
  return { keys: [...keys.values()] };
}

/** Hands each request its place: the n-th request of a counter in this batch has the n-th count of the new range. */
function answer(waiting: Waiting[], request: BatchRequest, totals: BatchTotals, windowEndsAt: number) {
  const keyNext = new Map(request.keys.map((k) => [k.counter, totals.keys.get(k.counter)! - k.count + 1]));
  const keyLimit = new Map(request.keys.map((k) => [k.counter, k.limit]));
  const admittedPerAccount = new Map<string, number>();
  for (const k of request.keys) {
    const admitted = admittedOf(totals.keys.get(k.counter)!, k.count, k.limit);
    admittedPerAccount.set(k.account, (admittedPerAccount.get(k.account) ?? 0) + admitted);
  }
  const accountNext = new Map(
    [...admittedPerAccount].map(([account, admitted]) => [account, (totals.accounts.get(account) ?? 0) - admitted + 1]),
  );
  for (const { pair, resolve } of waiting) {
    const keyCount = keyNext.get(pair.key)!;
    keyNext.set(pair.key, keyCount + 1);
    let account: PairCounts["account"] = null;
    if (keyCount <= keyLimit.get(pair.key)!) {
      const accountCount = accountNext.get(pair.account)!;
      accountNext.set(pair.account, accountCount + 1);
      account = { count: accountCount, windowEndsAt };
    }
    resolve({ key: { count: keyCount, windowEndsAt }, account });
  }
}

/** A RateLimitStore that gathers the requests of one turn and counts them in one call to `store`. */
export interface TurnCounter extends RateLimitStore {
  /** Batches sent so far (tests, the benchmark and the metrics: each is one round trip to the store). */
  batches: number;
  /** Of those, the ones the store failed (Redis or PostgreSQL away or too slow). */
  errors: number;
  hitPair(pair: CounterPair, windowMs: number, now: number): Promise<PairCounts>;
}

export function countedPerTurn(store: BatchCounterStore): TurnCounter {
  /** Per window: the requests waiting for this turn's batch. */
  let pending = new Map<string, { windowEndsAt: number; windowMs: number; waiting: Waiting[] }>();
  const counted: TurnCounter = {
    batches: 0,
    errors: 0,
    hitPair(pair: CounterPair, windowMs: number, now: number): Promise<PairCounts> {
      const windowEndsAt = windowEnd(now, windowMs);
      return new Promise<PairCounts>((resolve, reject) => {
        if (pending.size === 0) setImmediate(flush);
        const slot = `${windowMs}:${windowEndsAt}`;
        let batch = pending.get(slot);
        if (!batch) pending.set(slot, (batch = { windowEndsAt, windowMs, waiting: [] }));
        batch.waiting.push({ pair, resolve, reject });
      });
    },
  };
  function flush() {
    const batches = pending;
    pending = new Map();
    for (const { windowEndsAt, windowMs, waiting } of batches.values()) {
      counted.batches++;
      const request = batchRequest(waiting);
      store.addBatch(request, windowEndsAt, windowMs).then(
        (totals) => answer(waiting, request, totals, windowEndsAt),
        (error: unknown) => {
          counted.errors++;
          for (const { reject } of waiting) reject(error);
        },
      );
    }
  }
  return counted;
}
