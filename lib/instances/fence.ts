import "server-only";
import { randomUUID } from "node:crypto";
import pg from "pg";
import { ACKS_CHANNEL, FENCE_CHANNEL, parseAck } from "./channels";
import { LAPSE_MARGIN_MS, LEASE_MS } from "./lease";
import type { InstanceListener } from "./listener";

// The fence: after a change to a key or a membership has committed, waits
// until every live instance has applied it, or until the lease of an instance
// that did not answer has lapsed (it then reads every key from the database
// until it has caught up). So when a revoke returns, no instance accepts the
// key any more. Instances acknowledge a fence only after applying every change
// committed before it: PostgreSQL delivers notifications in commit order.
// docs/operations.md, "Several instances".

export interface FenceResult {
  /** Instances that acknowledged the change. */
  confirmed: number;
  /** Instances listed when the fence was raised; those that did not acknowledge had their leases lapse before it returned. */
  total: number;
  /** From raising the fence to its answer. */
  ms: number;
}

/** Where a fence sends its queries and hears acknowledgements. */
export interface FenceChannel {
  query<R extends pg.QueryResultRow>(text: string, values: unknown[]): Promise<pg.QueryResult<R>>;
  onAck(heard: (instanceId: string, fenceId: string) => void): () => void;
}

/**
 * The instances to wait for: every registered one whose last heartbeat is less than LISTED_FOR_MS old on the
 * database's clock. The threshold only leaves out instances long gone (stopped without leaving the table); it is ten
 * leases wide so that a step of the database's clock cannot leave out a live one. How long an instance is waited for
 * does not depend on this clock (below).
 */
export const LISTED_FOR_MS = 10 * LEASE_MS;
const LIVE_SQL = `SELECT "id" FROM "GateInstance" WHERE "heartbeatAt" > (now() AT TIME ZONE 'UTC') - make_interval(secs => $1)`;
const RAISE_SQL = `SELECT pg_notify('${FENCE_CHANNEL}', $1)`;

export async function raiseFence(channel: FenceChannel): Promise<FenceResult> {
  const started = performance.now();
  const fenceId = randomUUID();
  const acked = new Set<string>();
  let settle = () => {};
  const stop = channel.onAck((instanceId, heardFence) => {
    if (heardFence !== fenceId) return;
    acked.add(instanceId);
    settle();
  });
  try {
    const { rows } = await channel.query<{ id: string }>(LIVE_SQL, [LISTED_FOR_MS / 1000]);
    await channel.query(RAISE_SQL, [fenceId]);
    // An instance that does not acknowledge is waited for a lease and the margin from now, on this process's
    // monotonic clock: its lease, if renewed by a heartbeat sent before the change committed (which was before
    // now), ends before that; one renewed by a heartbeat sent after the commit was answered only after the change
    // reached it. No clock but this process's and the instance's own (which tick at the same rate) is trusted, nor
    // what the table says of its heartbeats (an attack review: a row aged by hand, or the database's clock stepping
    // forward, shortened the wait while the instance still trusted its cache).
    const deadline = performance.now() + LEASE_MS + LAPSE_MARGIN_MS;
    await new Promise<void>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      settle = () => {
        clearTimeout(timer);
        const now = performance.now();
        if (rows.every((row) => acked.has(row.id)) || now >= deadline) return resolve();
        timer = setTimeout(settle, deadline - now);
      };
      settle();
    });
    const confirmed = rows.filter((row) => acked.has(row.id)).length;
    return { confirmed, total: rows.length, ms: Math.round(performance.now() - started) };
  } finally {
    stop();
  }
}

/** The running instance's own listener as the fence's channel, when it is connected. */
export function listenerChannel(listener: InstanceListener, pool: Pick<pg.Pool, "query">): FenceChannel | null {
  if (!listener.connected()) return null;
  return {
    query: (text, values) => pool.query(text, values),
    onAck: (heard) => listener.onAck(heard),
  };
}

/** A fence from a process that is not an instance (the operator CLI), or whose listener is down: a connection of its own. */
export async function raiseFenceOnOwnConnection(databaseUrl: string): Promise<FenceResult> {
  const client = new pg.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5_000 });
  client.on("error", () => {});
  await client.connect();
  try {
    const heard = new Set<(instanceId: string, fenceId: string) => void>();
    client.on("notification", (message) => {
      const ack = message.channel === ACKS_CHANNEL && parseAck(message.payload ?? "");
      if (ack) for (const listener of heard) listener(ack.instanceId, ack.fenceId);
    });
    await client.query(`LISTEN ${ACKS_CHANNEL}`);
    return await raiseFence({
      query: (text, values) => client.query(text, values),
      onAck: (listener) => {
        heard.add(listener);
        return () => heard.delete(listener);
      },
    });
  } finally {
    await client.end().catch(() => {});
  }
}

/** What the dashboard and the CLI say after a fenced change: "Confirmed by 3 of 3 instances in 14 ms." */
export function fenceSentence(result: FenceResult | null): string {
  if (!result) return "";
  const ms = `${result.ms.toLocaleString("en-US")} ms`;
  const instances = result.total === 1 ? "instance" : "instances";
  const sentence = `Confirmed by ${result.confirmed} of ${result.total} ${instances} in ${ms}.`;
  const lapsed = result.total - result.confirmed;
  if (lapsed === 0) return sentence;
  return `${sentence.slice(0, -1)}; ${lapsed === 1 ? "the other one" : `the other ${lapsed}`} did not answer and stopped trusting ${lapsed === 1 ? "its cache" : "their caches"} when ${lapsed === 1 ? "its lease" : "their leases"} lapsed.`;
}
