import { AsyncLocalStorage } from "node:async_hooks";

// What the process remembers about each request Next answers, for the code
// around Next (lib/http/busy-page.ts) to read once Next has decided its
// answer: whether a query of that request found the database busy. The ORM
// client reports it (lib/database-client.ts) wherever in the request it ran.
// The runtime makes the one scope (lib/runtime/create-runtime.ts).

export interface RequestState {
  databaseBusy: boolean;
}

export interface RequestScope {
  /** Runs `answer` with `state` as the current request's. */
  run<T>(state: RequestState, answer: () => T): T;
  /** Marks the current request, if there is one, as having found the database busy. */
  markDatabaseBusy(): void;
}

export function createRequestScope(): RequestScope {
  const current = new AsyncLocalStorage<RequestState>();
  return {
    run: (state, answer) => current.run(state, answer),
    markDatabaseBusy() {
      const state = current.getStore();
      if (state) state.databaseBusy = true;
    },
  };
}
