import "server-only";
import { randomUUID } from "node:crypto";
import { hostname } from "node:os";
import pg from "pg";
import type { CacheTrust, KeyCacheControl } from "../keys/key-cache";
import { log } from "../log";
import { ACKS_CHANNEL, CHANGES_CHANNEL, FENCE_CHANNEL, parseAck, parseChange } from "./channels";
import { FORGET_INSTANCE_AFTER_MS, HEARTBEAT_INTERVAL_MS, HEARTBEAT_TIMEOUT_MS, Lease } from "./lease";

// This instance's place in the revocation fence (PostgreSQL only; one per
// runtime, lib/runtime/create-runtime.ts). On a connection of its own it
// listens for every change to a key or a membership (published at commit by
// triggers, whoever made the change), drops what each makes stale from the
// key cache, and acknowledges every fence, which tells the process that made
// a change that this instance has applied it. It registers in GateInstance
// and heartbeats through the same connection: while a heartbeat sent less
// than a lease ago was answered, the cache is trusted without reading the
// database (lib/instances/lease.ts says why that is sound). When the
// connection is lost the lease lapses, the gate reads each key's version per
// request, and the listener reconnects on its own; after reconnecting it
// drops the whole cache (it may have missed changes) before trusting it again.
// docs/operations.md, "Several instances".

export interface InstanceListener extends CacheTrust {
  /** This instance's id in GateInstance. */
  readonly id: string;
  /** Connects (and keeps reconnecting) until closed. */
  start(): void;
  /** Whether the listener is connected now (a fence made here then hears acknowledgements through it). */
  connected(): boolean;
  /** Calls `heard` with every acknowledgement until the returned function is called. */
  onAck(heard: (instanceId: string, fenceId: string) => void): () => void;
  /** Leaves the table and closes the connection. */
  close(): Promise<void>;
  /** Since start: the fences this instance acknowledged, and the times it lost a connection it was listening on (its lease ended). */
  readonly stats: { readonly acknowledged: number; readonly leaseLosses: number };
}

const REGISTER_SQL = `INSERT INTO "GateInstance" ("id", "host", "heartbeatAt") VALUES ($1, $2, now() AT TIME ZONE 'UTC')
  ON CONFLICT ("id") DO UPDATE SET "heartbeatAt" = EXCLUDED."heartbeatAt"`;
const FORGET_OLD_SQL = `DELETE FROM "GateInstance" WHERE "heartbeatAt" < (now() AT TIME ZONE 'UTC') - make_interval(secs => $1)`;
const LEAVE_SQL = `DELETE FROM "GateInstance" WHERE "id" = $1`;
const ACK_SQL = `SELECT pg_notify('${ACKS_CHANNEL}', $1)`;

const RECONNECT_FIRST_MS = 100;
const RECONNECT_MAX_MS = 2_000;

export function createInstanceListener(options: {
  databaseUrl: string;
  /** The key cache the changes are applied to: asked for on the first change, so the two can be made in either order. */
  cache: () => KeyCacheControl;
}): InstanceListener {
  const id = randomUUID();
  const host = `${hostname()}:${process.pid}`;
  const lease = new Lease();
  const ackListeners = new Set<(instanceId: string, fenceId: string) => void>();
  let client: pg.Client | null = null;
  /**
   * The connection listens and the cache was cleared after it began to: only then may a heartbeat renew the lease
   * (a heartbeat queued on a connection still being set up could otherwise run before its LISTEN).
   */
  let ready = false;
  let running = false;
  let heartbeat: NodeJS.Timeout | undefined;
  let beating = false;
  let reconnectDelay = RECONNECT_FIRST_MS;
  /** Logged once per loss, not per attempt. */
  let lostLogged = false;
  const stats = { acknowledged: 0, leaseLosses: 0 };

  function applyChange(payload: string) {
    const change = parseChange(payload);
    const cache = options.cache();
    if (!change) cache.clear();
    else if (change.kind === "key") cache.forget(change.keyId);
    else cache.forgetMember(change.teamId, change.userId);
  }

  function onNotification(from: pg.Client, message: pg.Notification) {
    if (from !== client) return;
    const payload = message.payload ?? "";
    if (message.channel === CHANGES_CHANNEL) applyChange(payload);
    else if (message.channel === FENCE_CHANNEL) {
      // Every change committed before the fence was delivered before it, and applied above, synchronously.
      from.query(ACK_SQL, [`${id} ${payload}`]).then(
        () => void stats.acknowledged++,
        () => lost(from, "ack failed"),
      );
    } else if (message.channel === ACKS_CHANNEL) {
      const ack = parseAck(payload);
      if (ack) for (const heard of ackListeners) heard(ack.instanceId, ack.fenceId);
    }
  }

  function beat() {
    const current = client;
    if (!current || !ready || beating) return;
    beating = true;
    const sentAt = performance.now();
    const timeout = setTimeout(() => lost(current, "heartbeat timed out"), HEARTBEAT_TIMEOUT_MS);
    current
      .query(REGISTER_SQL, [id, host])
      .then(
        () => {
          if (current === client) lease.renew(sentAt);
        },
        () => lost(current, "heartbeat failed"),
      )
      .finally(() => {
        clearTimeout(timeout);
        beating = false;
      });
  }

  function lost(from: pg.Client, reason: string) {
    if (from !== client) return;
    if (ready) stats.leaseLosses++;
    client = null;
    ready = false;
    lease.end();
    from.end().catch(() => {});
    if (!lostLogged) {
      lostLogged = true;
      log.warn("instances.listener_lost", { instance_id: id, reason });
    }
    scheduleConnect();
  }

  function scheduleConnect() {
    if (!running) return;
    const delay = reconnectDelay;
    reconnectDelay = Math.min(reconnectDelay * 2, RECONNECT_MAX_MS);
    setTimeout(() => void connect(), delay).unref();
  }

  async function connect() {
    if (!running || client) return;
    const next = new pg.Client({
      connectionString: options.databaseUrl,
      connectionTimeoutMillis: 2_000,
      keepAlive: true,
    });
    next.on("error", () => lost(next, "connection error"));
    next.on("end", () => lost(next, "connection ended"));
    next.on("notification", (message) => onNotification(next, message));
    client = next;
    try {
      await next.connect();
      await next.query(`LISTEN ${CHANGES_CHANNEL}; LISTEN ${FENCE_CHANNEL}; LISTEN ${ACKS_CHANNEL}`);
      // Listening now: whatever changed before may not have been heard. Dropped before the first heartbeat, so
      // nothing read before this moment is trusted.
      options.cache().clear();
      await next.query(FORGET_OLD_SQL, [FORGET_INSTANCE_AFTER_MS / 1000]);
    } catch (error) {
      if (client === next) {
        client = null;
        ready = false;
        next.end().catch(() => {});
        if (!lostLogged) {
          lostLogged = true;
          log.warn("instances.listener_lost", { instance_id: id, reason: String((error as Error)?.message) });
        }
        scheduleConnect();
      }
      return;
    }
    if (client !== next) return;
    ready = true;
    reconnectDelay = RECONNECT_FIRST_MS;
    if (lostLogged) log.info("instances.listener_restored", { instance_id: id });
    else log.info("instances.listening", { instance_id: id, host });
    lostLogged = false;
    beat();
  }

  return {
    id,
    stats,
    trusted: () => ready && lease.holds(),
    connected: () => ready,
    start() {
      if (running) return;
      running = true;
      heartbeat = setInterval(beat, HEARTBEAT_INTERVAL_MS);
      heartbeat.unref();
      void connect();
    },
    onAck(heard) {
      ackListeners.add(heard);
      return () => ackListeners.delete(heard);
    },
    async close() {
      running = false;
      clearInterval(heartbeat);
      const current = client;
      client = null;
      ready = false;
      lease.end();
      if (!current) return;
      await current.query(LEAVE_SQL, [id]).catch(() => {});
      await current.end().catch(() => {});
    },
  };
}
