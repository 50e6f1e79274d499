// The turn batcher (lib/public-api/rate-limit-batch.ts) against the in-process
// store, which counts one request at a time: for any mix of keys, limits and
// teams arriving in one turn, each request gets exactly the counts it would
// have got alone, in arrival order, from one call to the store.
import fc from "fast-check";
import { expect, it } from "vitest";
import { MemoryRateLimitStore, WINDOW_MS, type CounterPair } from "@/lib/public-api/rate-limit";
import { admittedOf, countedPerTurn, type BatchCounterStore } from "@/lib/public-api/rate-limit-batch";
import { propertyRuns } from "../helpers/property-runs";

/** A batch store over plain totals, adding each key's requests and then each team's admitted ones at once. */
function totalsStore(): BatchCounterStore & { calls: number } {
  const totals = new Map<string, number>();
  const add = (counter: string, count: number) => {
    const total = (totals.get(counter) ?? 0) + count;
    totals.set(counter, total);
    return total;
  };
  return {
    calls: 0,
    async addBatch(request) {
      this.calls++;
      const keys = new Map<string, number>();
      const admitted = new Map<string, number>();
      for (const k of request.keys) {
        const total = add(k.counter, k.count);
        keys.set(k.counter, total);
        admitted.set(k.account, (admitted.get(k.account) ?? 0) + admittedOf(total, k.count, k.limit));
      }
      const accounts = new Map<string, number>();
      for (const [account, count] of admitted) if (count > 0) accounts.set(account, add(account, count));
      return { keys, accounts };
    },
  };
}

const pair = fc.record({ key: fc.integer({ min: 0, max: 3 }) });

it("counts a turn's requests in one call, each exactly as the one-at-a-time store would", async () => {
  await fc.assert(
    fc.asyncProperty(
      fc.array(fc.array(pair, { minLength: 1, maxLength: 12 }), { minLength: 1, maxLength: 4 }),
      async (turns) => {
        const now = Date.now();
        const store = totalsStore();
        const batched = countedPerTurn(store);
        const reference = new MemoryRateLimitStore();
        // A key's team and limit never change: key k is in team k % 2, with a limit of k + 2.
        const pairOf = ({ key }: { key: number }): CounterPair => ({
          key: `rl:${key}`,
          keyLimit: key + 2,
          account: `rlt:${key % 2}`,
        });
        for (const turn of turns) {
          const answers = await Promise.all(turn.map((p) => batched.hitPair(pairOf(p), WINDOW_MS, now)));
          const expected = turn.map((p) => reference.hitPair(pairOf(p), WINDOW_MS, now));
          expect(answers).toEqual(expected);
        }
        expect(store.calls).toBe(turns.length);
      },
    ),
    { numRuns: propertyRuns(200) },
  );
});

it("counts a key whose requests in one turn carry two limits against the lower one, for the key and the team alike", async () => {
  const now = Date.now();
  const store = totalsStore();
  const batched = countedPerTurn(store);
  const pair = (keyLimit: number): CounterPair => ({ key: "rl:k", keyLimit, account: "rlt:t" });
  // The key at its limit of 2 already.
  await Promise.all([batched.hitPair(pair(2), WINDOW_MS, now), batched.hitPair(pair(2), WINDOW_MS, now)]);
  // One turn: a request with the old limit, then five with a raised one. All five are judged by the lower limit.
  const answers = await Promise.all(
    [2, 1000, 1000, 1000, 1000, 1000].map((limit) => batched.hitPair(pair(limit), WINDOW_MS, now)),
  );
  expect(answers.map((answer) => answer.account)).toEqual(Array(6).fill(null));
  // The team's count never moved past the two requests the key let through.
  const after = await batched.hitPair({ key: "rl:other", keyLimit: 10, account: "rlt:t" }, WINDOW_MS, now);
  expect(after.account?.count).toBe(3);
});
