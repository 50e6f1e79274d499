// A value now, or a promise of one later. The gate's hot path is written with
// it: on the SQLite default a cached key, the in-process rate limit and a
// catalog answer are all at hand, and an `async` function would still make a
// promise for each step. In the server every promise costs more than it
// seems, because Next keeps an AsyncLocalStorage in the same process and
// Node 20 then runs its async hooks for each one (docs/architecture.md:
// "The gate's hot path"). Where something does wait (PostgreSQL, Redis, a body), it is a
// promise as before.

export type MaybePromise<T> = T | Promise<T>;

/** `next(value)`: at once for a value, once it settles for a promise. A throw in `next` is thrown or rejects alike. */
export function andThen<T, U>(value: MaybePromise<T>, next: (value: T) => MaybePromise<U>): MaybePromise<U> {
  return value instanceof Promise ? value.then(next) : next(value);
}
