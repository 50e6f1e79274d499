import { withFields } from "../with-fields";
import { hourOf, requestsIn, statusClass, type StatusClass, type UsageEvent, type UsageSink } from "./event";

// The usage sink the gate uses: events wait in memory and a background flush
// writes them in batches, every second or every 500 events, whichever comes
// first. The buffer is bounded: when it is full an event is dropped and
// counted, never waited for, so a slow or absent database costs usage rows,
// not requests. A failed write drops its batch (counted) rather than
// retrying into a growing backlog.
//
// An event over the per-key log cap only counts in the hourly aggregates, so
// it is not kept: it adds one to a waiting event of the same key, route,
// status class, error code and hour (`count`), and the request's own object
// dies young.
// A busy key then costs the buffer one entry per second, not one per request:
// events kept until the flush outlive V8's young generation and are copied
// into the old one, whose collections held the gate up (docs/architecture.md:
// "The gate's hot path").

export interface UsageBufferOptions {
  write: (events: UsageEvent[]) => Promise<void>;
  /**
   * Log rows per key per minute (in this instance); beyond it an event only
   * counts in the hourly aggregates. A flood (a revoked key hammered, a
   * client ignoring 429s) cannot grow the request log without bound, and the
   * counts stay exact.
   */
  logPerKeyPerMinute?: number;
  /** Called after drops, at most once per `warnEveryMs`, with the running total. */
  onDrop?: (dropped: number, reason: "full" | "write_failed") => void;
  maxEvents?: number;
  batchSize?: number;
  intervalMs?: number;
}

export interface UsageStats {
  recorded: number;
  written: number;
  dropped: number;
  /** Of the dropped, by reason: the buffer was full, or their batch's write failed. */
  droppedFull: number;
  droppedWriteFailed: number;
  /** Requests waiting, or in the batch being written. */
  pending: number;
}

export const DEFAULT_LOG_PER_KEY_PER_MINUTE = 120;

/**
 * An unlogged event kept to stand for the requests like it (same key, route,
 * status class, error code and hour) until the flush. The error code too: the
 * errors are counted by code (a 429 must not stand for a revoked key's 401).
 */
interface Tally {
  route: string;
  statusClass: StatusClass;
  errorCode: string | null;
  hour: number;
  event: UsageEvent & { count: number };
}

export class UsageBuffer implements UsageSink {
  private events: UsageEvent[] = [];
  /** The requests `events` stand for (an unlogged event may stand for many). */
  private pending = 0;
  /** The requests of the batch the writer has and has not answered for. */
  private writing = 0;
  /** Unlogged events still in `events`, by key id, that further requests add to; emptied when a batch is taken. */
  private readonly tallies = new Map<string, Tally[]>();
  private flushing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly stats = { recorded: 0, written: 0, dropped: 0, droppedFull: 0, droppedWriteFailed: 0 };
  private readonly write: UsageBufferOptions["write"];
  private readonly onDrop: NonNullable<UsageBufferOptions["onDrop"]>;
  private readonly maxEvents: number;
  private readonly batchSize: number;
  private readonly logCap: number;
  private logMinute = -1;
  private readonly loggedThisMinute = new Map<string, number>();

  constructor(options: UsageBufferOptions) {
    this.write = options.write;
    this.onDrop = options.onDrop ?? (() => {});
    this.maxEvents = options.maxEvents ?? 10_000;
    this.batchSize = options.batchSize ?? 500;
    this.logCap = options.logPerKeyPerMinute ?? DEFAULT_LOG_PER_KEY_PER_MINUTE;
    this.timer = setInterval(() => void this.flush(), options.intervalMs ?? 1_000);
    // The timer must not keep a process (a test, the CLI) alive on its own.
    this.timer.unref?.();
  }

  record(event: UsageEvent): void {
    this.stats.recorded++;
    const logged = this.underLogCap(event);
    // A first use in a minute moves the key's last use (its time and address): it is kept as it is.
    if (!logged && !event.touchesKey && this.addToTally(event)) {
      this.pending++;
      return;
    }
    if (this.events.length >= this.maxEvents) {
      this.stats.dropped++;
      this.stats.droppedFull++;
      this.onDrop(this.stats.dropped, "full");
      return;
    }
    if (logged) this.events.push(event);
    else this.keepUnlogged(event);
    this.pending++;
    if (this.events.length >= this.batchSize) void this.flush();
  }

  /** Adds the event to a waiting one it counts with; false if there is none. */
  private addToTally(event: UsageEvent): boolean {
    const tallies = this.tallies.get(event.keyId);
    if (!tallies) return false;
    const hour = hourOf(event.createdAt);
    const status = statusClass(event.status);
    for (const tally of tallies) {
      if (
        tally.route === event.route &&
        tally.statusClass === status &&
        tally.errorCode === event.errorCode &&
        tally.hour === hour
      ) {
        tally.event.count++;
        return true;
      }
    }
    return false;
  }

  private keepUnlogged(event: UsageEvent): void {
    const kept = withFields(event, { logged: false, count: 1 });
    this.events.push(kept);
    if (event.touchesKey) return;
    const tally = {
      route: event.route,
      statusClass: statusClass(event.status),
      errorCode: event.errorCode,
      hour: hourOf(event.createdAt),
      event: kept,
    };
    const tallies = this.tallies.get(event.keyId);
    if (tallies) tallies.push(tally);
    else this.tallies.set(event.keyId, [tally]);
  }

  private underLogCap(event: UsageEvent): boolean {
    const minute = Math.floor(event.createdAt.getTime() / 60_000);
    if (minute !== this.logMinute) {
      this.logMinute = minute;
      this.loggedThisMinute.clear();
    }
    const logged = this.loggedThisMinute.get(event.keyId) ?? 0;
    if (logged >= this.logCap) return false;
    this.loggedThisMinute.set(event.keyId, logged + 1);
    return true;
  }

  /** Writes everything buffered so far, one batch at a time; concurrent calls share the work. */
  flush(): Promise<void> {
    this.flushing ??= this.drain().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  private async drain(): Promise<void> {
    while (this.events.length > 0) {
      const batch = this.events.splice(0, this.batchSize);
      // From here the batch is the writer's: nothing may add to its events.
      this.tallies.clear();
      const requests = requestsIn(batch);
      this.pending -= requests;
      this.writing = requests;
      try {
        await this.write(batch);
        this.stats.written += requests;
      } catch {
        this.stats.dropped += requests;
        this.stats.droppedWriteFailed += requests;
        this.onDrop(this.stats.dropped, "write_failed");
      } finally {
        this.writing = 0;
      }
    }
  }

  /** Stops the timer and writes what is left (on shutdown). */
  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.flush();
  }

  snapshot(): UsageStats {
    return withFields(this.stats, { pending: this.pending + this.writing });
  }
}
