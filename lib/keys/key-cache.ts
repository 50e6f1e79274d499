import "server-only";
import { LRUCache } from "lru-cache";
import { andThen, type MaybePromise } from "../maybe-promise";
import type { KeyStore, KnownKey } from "./key-store";

// Verified keys, cached in each instance, keyed by digest. A hit is never
// taken on trust: the key's version is read from the database on every
// request (one indexed integer), and an entry whose version moved is dropped
// and the key read again. On SQLite the store can tell without a query that
// nothing at all was committed since an entry was last checked (its change
// mark); only then is the version read skipped. So whatever changed a key (the dashboard, the
// operator CLI in its own process, another instance) and from wherever, the
// next request that starts after the change committed sees it; and when the
// database cannot answer, the request fails rather than trusting the cache.
// What the cache saves is the full row and its parsing, not the round trip:
// docs/architecture.md, "Cached keys and instant revocation".

export const KEY_CACHE_SIZE = 100_000;

/** A key found by digest, and whether this instance's cache answered (after the version check). */
export interface FoundByDigest {
  key: KnownKey;
  cached: boolean;
}

/** How the gate finds a key by digest: at once when the cache can tell without the database. */
export interface KeyLookup {
  find(digest: string): MaybePromise<FoundByDigest | null>;
}

/** Counts for tests and the benchmark; the gate's answers never depend on them. */
export interface KeyCacheStats {
  hits: number;
  misses: number;
  /** Of the hits, those the store's change mark confirmed without reading the version. */
  unchanged: number;
}

/** A cached key, and the store's change mark from just before it was last read or checked (null: none). */
interface Held {
  key: KnownKey;
  mark: string | null;
}

export function uncachedKeyLookup(store: KeyStore): KeyLookup {
  return {
    async find(digest) {
      const key = await store.byDigest(digest);
      return key ? { key, cached: false } : null;
    },
  };
}

export function cachedKeyLookup(
  store: KeyStore,
  { max = KEY_CACHE_SIZE }: { max?: number } = {},
): KeyLookup & { stats: KeyCacheStats } {
  const cache = new LRUCache<string, Held>({ max });
  const stats: KeyCacheStats = { hits: 0, misses: 0, unchanged: 0 };
  return {
    stats,
    find(digest) {
      // Read before any database read: whatever a read below returns is at least as new as this mark.
      const mark = store.changeMark?.() ?? null;
      const held = cache.get(digest);
      if (held && mark !== null && held.mark === mark) {
        // Nothing was committed since the entry was last read or checked: it is current.
        stats.hits++;
        stats.unchanged++;
        return { key: held.key, cached: true };
      }
      return readThrough(digest, held, mark);
    },
  };

  /** The database's answer: the held entry's version checked, or the key read again; at once on SQLite. */
  function readThrough(
    digest: string,
    held: Held | undefined,
    mark: string | null,
  ): MaybePromise<FoundByDigest | null> {
    if (!held) return readKey(digest, mark);
    return andThen(store.versionOf(held.key.id), (version) => {
      if (version === held.key.version) {
        held.mark = mark;
        stats.hits++;
        return { key: held.key, cached: true };
      }
      cache.delete(digest);
      return version === null ? null : readKey(digest, mark);
    });
  }

  function readKey(digest: string, mark: string | null): MaybePromise<FoundByDigest | null> {
    stats.misses++;
    return andThen(store.byDigest(digest), (key) => {
      // Unknown digests are not cached: a flood of made-up keys cannot push out real ones.
      if (!key) return null;
      cache.set(digest, { key, mark });
      return { key, cached: false };
    });
  }
}
