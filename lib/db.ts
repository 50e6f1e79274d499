import "server-only";
import type { Provider } from "./db-target";
import type { Db } from "./database-client";
import { runtime } from "./runtime/runtime";

export type { Db } from "./database-client";

// The process's ORM client, which the runtime holds (lib/runtime/create-runtime.ts).
// Resolved on each use, not on import, so `next build` can load this module
// without a database or secrets.
export const db: Db = new Proxy({} as Db, {
  get(_target, property) {
    const client = runtime().db;
    const value: unknown = Reflect.get(client, property, client);
    return typeof value === "function" ? value.bind(client) : value;
  },
});

export function dbProvider(): Provider {
  return runtime().provider;
}
