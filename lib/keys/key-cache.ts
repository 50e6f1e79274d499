import "server-only";
import { LRUCache } from "lru-cache";
import { andThen, type MaybePromise } from "../maybe-promise";
import type { KeyStore, KnownKey } from "./key-store";

// Verified keys, cached in each instance, keyed by digest. A hit is served
// without reading the database only when something proves nothing changed the
// key since it was read:
// - on SQLite, the store's change mark (nothing at all was committed since the
//   entry was last read or checked: lib/keys/wal-change-mark.ts);
// - on PostgreSQL, this instance's lease (lib/instances/listener.ts): every
//   change to a key or a membership is published at commit and dropped from
//   this cache (forget, forgetMember) before the instance acknowledges it, and
//   the instance trusts its cache only while its lease, renewed by heartbeats
//   on the same connection, holds.
// Otherwise the key's version is read (one indexed integer): an entry whose
// version moved is dropped and the key read again. So whatever changed a key
// (the dashboard, the operator CLI in its own process, another instance, plain
// SQL), the next request that starts after the change committed, or after
// the change's fence returned, sees it; and when the database cannot answer,
// the request fails rather than trusting the cache. docs/architecture.md,
// "Cached keys and instant revocation".

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
  /** Of the hits, those the store's change mark or the instance's lease confirmed without reading the version. */
  unchanged: number;
}

/** Whether this instance's cache may be served without reading the version (PostgreSQL: the lease holds). */
export interface CacheTrust {
  trusted(): boolean;
}

/** How the change listener drops what a change made stale. */
export interface KeyCacheControl {
  /** The key with this row id changed or was deleted. */
  forget(keyId: string): void;
  /** A membership of this user in this team changed or ended: every key of theirs in the team. */
  forgetMember(teamId: string, userId: string): void;
  /** Everything: the listener may have missed changes (it reconnected). */
  clear(): void;
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

export type CachedKeyLookup = KeyLookup & KeyCacheControl & { stats: KeyCacheStats };

export function cachedKeyLookup(
  store: KeyStore,
  { max = KEY_CACHE_SIZE, trust }: { max?: number; trust?: CacheTrust } = {},
): CachedKeyLookup {
  // The digest of each cached key by row id, for forget (a change names the row, not the secret's digest).
  const digests = new Map<string, string>();
  const cache = new LRUCache<string, Held>({
    max,
    dispose: (held, digest) => {
      if (digests.get(held.key.id) === digest) digests.delete(held.key.id);
    },
  });
  const stats: KeyCacheStats = { hits: 0, misses: 0, unchanged: 0 };
  // Raised by every forget: a read that began before a change and returns after it was dropped is not
  // cached (it may hold the row as it was before the change).
  let drops = 0;
  return {
    stats,
    find(digest) {
      // Read before any database read: whatever a read below returns is at least as new as this mark.
      const mark = store.changeMark?.() ?? null;
      const held = cache.get(digest);
      if (held && ((mark !== null && held.mark === mark) || trust?.trusted())) {
        // Nothing was committed since the entry was last read or checked, or every change since was applied here.
        stats.hits++;
        stats.unchanged++;
        return { key: held.key, cached: true };
      }
      return readThrough(digest, held, mark);
    },
    forget(keyId) {
      drops++;
      const digest = digests.get(keyId);
      if (digest !== undefined) cache.delete(digest);
    },
    forgetMember(teamId, userId) {
      drops++;
      for (const [digest, held] of cache.entries()) {
        if (held.key.teamId === teamId && held.key.userId === userId) cache.delete(digest);
      }
    },
    clear() {
      drops++;
      cache.clear();
    },
  };

  /** The database's answer: the held entry's version checked, or the key read again; at once on SQLite. */
  function readThrough(
    digest: string,
    held: Held | undefined,
    mark: string | null,
  ): MaybePromise<FoundByDigest | null> {
    if (!held) return readKey(digest, mark);
    const dropsBefore = drops;
    return andThen(store.versionOf(held.key.id), (version) => {
      if (version === held.key.version && drops === dropsBefore) {
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
    const dropsBefore = drops;
    return andThen(store.byDigest(digest), (key) => {
      // Unknown digests are not cached: a flood of made-up keys cannot push out real ones.
      if (!key) return null;
      if (drops === dropsBefore) {
        cache.set(digest, { key, mark });
        digests.set(key.id, digest);
      }
      return { key, cached: false };
    });
  }
}
