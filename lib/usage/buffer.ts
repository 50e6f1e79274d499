import { withFields } from "../with-fields";
import type { UsageEvent, UsageSink } from "./event";

// The usage sink the gate uses: events wait in memory and a background flush
// writes them in batches, every second or every 500 events, whichever comes
// first. The buffer is bounded: when it is full an event is dropped and
// counted, never waited for, so a slow or absent database costs usage rows,
// not requests. A failed write drops its batch (counted) rather than
// retrying into a growing backlog.

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
  pending: number;
}

export const DEFAULT_LOG_PER_KEY_PER_MINUTE = 120;

const UNLOGGED = { logged: false } as const;

export class UsageBuffer implements UsageSink {
  private events: UsageEvent[] = [];
  private flushing: Promise<void> | null = null;
  private timer: ReturnType<typeof setInterval> | null = null;
  private readonly stats = { recorded: 0, written: 0, dropped: 0 };
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
    if (this.events.length >= this.maxEvents) {
      this.stats.dropped++;
      this.onDrop(this.stats.dropped, "full");
      return;
    }
    this.events.push(this.underLogCap(event) ? event : withFields(event, UNLOGGED));
    if (this.events.length >= this.batchSize) void this.flush();
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
      try {
        await this.write(batch);
        this.stats.written += batch.length;
      } catch {
        this.stats.dropped += batch.length;
        this.onDrop(this.stats.dropped, "write_failed");
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
    const { recorded, written, dropped } = this.stats;
    return { recorded, written, dropped, pending: this.events.length };
  }
}
