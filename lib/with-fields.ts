// A copy of an object with some fields added or replaced, for code that runs
// once per public API request. Written `{ ...source, extra }`, Node 20's V8
// allocates such a copy in the old generation: measured, about 175 bytes per
// copy went there and stayed until a full collection, so the gate set off a
// full collection every second or two at a few thousand requests a second,
// and its pauses were most of the p99 the gate added at half load
// (docs/architecture.md: "The gate's hot path"). Object.assign into a new object leaves
// nothing behind; a plain `{ ...source }` with nothing added is fine too.
export function withFields<T extends object, E extends object>(source: T, extra: E): Omit<T, keyof E> & E {
  return Object.assign({}, source, extra);
}
