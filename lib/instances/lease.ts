// The numbers of the revocation fence, with their reasons (docs/operations.md, "Several instances").

/**
 * How long an instance trusts its key cache after a heartbeat was sent, if its
 * answer came back. The answer to a heartbeat arrives after every change
 * committed before it ran (PostgreSQL sends a listening connection its
 * notifications before the reply that ends a transaction), so for this long
 * after sending it the instance knows it has missed nothing but what is still
 * on its way. Past it, the instance reads each key's version per request.
 * It is also the longest a change made by plain SQL (which has no fence) may
 * take to reach an instance whose listener is stuck.
 */
export const LEASE_MS = 1_000;

/** Four heartbeats per lease: three can be lost before the lease lapses. */
export const HEARTBEAT_INTERVAL_MS = 250;

/**
 * What a fence adds to the lease before it stops waiting for an instance that
 * did not acknowledge: the wait counts on the fencing process's monotonic clock
 * from after the change committed, the instance's lease on its own from before
 * (lib/instances/fence.ts); the two clocks tick at the same rate to far better
 * than this over one second, and this covers a timer that fires late.
 */
export const LAPSE_MARGIN_MS = 250;

/** A heartbeat that has not answered in this long ends the connection: a new one is opened. */
export const HEARTBEAT_TIMEOUT_MS = 2 * LEASE_MS;

/** Instances whose last heartbeat is older than this are deleted from the table by the next instance to start. */
export const FORGET_INSTANCE_AFTER_MS = 60 * 60 * 1000;

/** A lease on the monotonic clock: it holds until `until` (performance.now()). */
export class Lease {
  private until = 0;

  holds(now = performance.now()): boolean {
    return now < this.until;
  }

  /** A heartbeat sent at `sentAt` was answered. */
  renew(sentAt: number): void {
    this.until = Math.max(this.until, sentAt + LEASE_MS);
  }

  end(): void {
    this.until = 0;
  }
}
