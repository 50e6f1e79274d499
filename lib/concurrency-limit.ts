/**
 * At most `concurrent` pieces of work at once; at most `waiting` more wait
 * their turn, in order; past that `run` refuses at once with `full()`'s
 * error, so a flood cannot make a real caller wait behind it.
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly queue: (() => void)[] = [];

  constructor(private readonly limits: { concurrent: number; waiting: number; full: () => Error }) {}

  /** Whether new work would be refused right now. */
  saturated(): boolean {
    return this.active >= this.limits.concurrent && this.queue.length >= this.limits.waiting;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.active >= this.limits.concurrent) {
      if (this.queue.length >= this.limits.waiting) throw this.limits.full();
      await new Promise<void>((resolve) => this.queue.push(resolve));
    }
    this.active++;
    try {
      return await work();
    } finally {
      this.active--;
      this.queue.shift()?.();
    }
  }
}
