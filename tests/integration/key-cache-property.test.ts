// Property-based, on one instance with its key cache: for any interleaving of
// verifications, revocations and scope edits, no verification that starts
// after a change has returned answers as if the change had not happened.
// fast-check's scheduler decides when each database read's answer reaches the
// cache (a read that started before a change may arrive after it), and when
// each operation starts. On SQLite every run ends on the change mark's
// shortcut, checked against whatever the late answers left in the cache.
import fc from "fast-check";
import { randomUUID } from "node:crypto";
import { expect, it } from "vitest";
import { cachedKeyLookup } from "@/lib/keys/key-cache";
import type { KeyStore } from "@/lib/keys/key-store";
import { createKey, revokeKey, updateRestrictions } from "@/lib/keys/lifecycle";
import { verifyApiKey } from "@/lib/keys/verify";
import { runtime } from "@/lib/runtime/runtime";
import { propertyRuns } from "../helpers/property-runs";
import { bareAccount } from "../helpers/bare-account";

// 60 cases in CI; a tenth on a developer's machine (tests/helpers/property-runs.ts).
const RUNS = propertyRuns(60);

/** An account per run: a run's keys stay well under the per-account limit of keys in use. */
async function newActor() {
  const user = await bareAccount(`cache-property.${randomUUID()}@example.com`);
  return { userId: user.id, ip: null, userAgent: null };
}

/**
 * The store, with every answer handed back when the scheduler says so. The
 * change mark (SQLite's, read without a query) is read when asked, so a late
 * answer is one read after an earlier mark, as in the gate.
 */
function scheduled(store: KeyStore, scheduler: fc.Scheduler): KeyStore {
  return {
    byDigest: (digest) => scheduler.schedule(Promise.resolve(store.byDigest(digest)), "read key"),
    versionOf: (id) => scheduler.schedule(Promise.resolve(store.versionOf(id)), "read version"),
    ...(store.changeMark ? { changeMark: () => store.changeMark!() } : {}),
  };
}

const KEYS = 3;
const operation = fc.oneof(
  fc.record({ kind: fc.constant("verify" as const), key: fc.nat({ max: KEYS - 1 }) }),
  fc.record({ kind: fc.constant("revoke" as const), key: fc.nat({ max: KEYS - 1 }) }),
  fc.record({ kind: fc.constant("read-only" as const), key: fc.nat({ max: KEYS - 1 }) }),
  // Some of the pending answers arrive now, so later verifications meet entries they rewrote (or left).
  fc.record({ kind: fc.constant("settle" as const), answers: fc.integer({ min: 1, max: 3 }) }),
);

it("no verification that starts after a change has returned sees the key as it was", async () => {
  const store = runtime().keyStore;
  let confirmedByMark = 0;
  await fc.assert(
    fc.asyncProperty(fc.scheduler(), fc.array(operation, { minLength: 1, maxLength: 16 }), async (scheduler, ops) => {
      const actor = await newActor();
      const keys: { publicId: string; secret: string }[] = [];
      for (let i = 0; i < KEYS; i++) {
        const { key, secret } = await createKey(actor, { label: `property ${i}`, environment: "dev", expiresAt: null });
        keys.push({ publicId: key.id, secret });
      }
      const lookup = cachedKeyLookup(scheduled(store, scheduler));
      // Every key starts in the cache, so the property is about cached entries.
      for (const { secret } of keys) {
        const warm = Promise.resolve(verifyApiKey(secret, new Date(), lookup));
        await scheduler.waitFor(warm);
        expect((await warm).ok).toBe(true);
      }

      let clock = 0;
      const revokedAt = new Map<number, number>();
      const readOnlyAt = new Map<number, number>();
      const verify = async (index: number) => {
        const started = ++clock;
        const result = await verifyApiKey(keys[index]!.secret, new Date(), lookup);
        const revoked = revokedAt.get(index);
        const readOnly = readOnlyAt.get(index);
        if (revoked !== undefined && started > revoked) expect(result.ok, "revoked, yet accepted").toBe(false);
        if (readOnly !== undefined && started > readOnly && result.ok) {
          expect(result.key.restrictions.scopes, "made read-only, yet still all").not.toBe("all");
        }
      };
      const change = async (kind: "revoke" | "read-only", index: number) => {
        const { publicId } = keys[index]!;
        if (revokedAt.has(index) || (kind === "read-only" && readOnlyAt.has(index))) return;
        if (kind === "revoke") {
          await revokeKey(actor, publicId, null);
          revokedAt.set(index, ++clock);
        } else {
          await updateRestrictions(actor, publicId, {
            scopes: ["catalog:read", "generations:read"],
            allowedIps: null,
            rateLimit: null,
          });
          readOnlyAt.set(index, ++clock);
        }
      };
      // Operations start in order. A verification does not wait: its database reads are answered whenever the
      // scheduler says, possibly after later changes have returned (a stale answer arriving late, which may land
      // in the cache). A change returns before the next operation starts.
      const run: Promise<void>[] = [];
      for (const op of ops) {
        if (op.kind === "verify") {
          const verified = verify(op.key);
          // Its failure is the run's (Promise.all below), not an unhandled rejection if it fails during a settle.
          verified.catch(() => {});
          run.push(verified);
        } else if (op.kind === "settle") {
          await scheduler.waitNext(Math.min(op.answers, scheduler.count()));
        } else await change(op.kind, op.key);
      }
      await scheduler.waitFor(Promise.all(run));
      // Every answer in, each key is verified twice more: the first reads the version and records the header; the
      // second, with nothing committed since, is answered by the header alone. So every run, whatever was
      // generated, checks the shortcut on entries late answers may have left stale, and the count below does not
      // depend on the draw (verifications ahead of a run's first change, where nothing can be stale yet, are the
      // only others that take it).
      const shortcutsBefore = lookup.stats.unchanged;
      for (let index = 0; index < KEYS; index++) {
        await scheduler.waitFor(verify(index));
        await scheduler.waitFor(verify(index));
      }
      confirmedByMark += lookup.stats.unchanged - shortcutsBefore;
    }),
    { numRuns: RUNS },
  );
  // On SQLite the final verifications took the change mark's shortcut, so the property covers it.
  if (store.changeMark) expect(confirmedByMark).toBeGreaterThan(0);
}, 120_000);
