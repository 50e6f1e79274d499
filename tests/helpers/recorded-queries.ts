// The ORM queries a piece of work makes, in order: the process's client is
// swapped, for the work's length, for one that notes each query's model,
// operation and arguments (inside transactions too) before running it. For
// tests that prove two paths ask the database the same questions.
import { vi } from "vitest";
import { runtime } from "@/lib/runtime/runtime";

export interface RecordedQuery {
  model: string | undefined;
  operation: string;
  args: unknown;
}

/** Runs `work` with every query through `db` recorded; answers its result and the queries. */
export async function recordQueries<T>(work: () => Promise<T>): Promise<{ result: T; queries: RecordedQuery[] }> {
  const queries: RecordedQuery[] = [];
  const client = runtime().db;
  const recording = client.$extends({
    query: {
      $allOperations: ({ model, operation, args, query }) => {
        queries.push({ model, operation, args });
        return query(args);
      },
    },
  }) as unknown as typeof client;
  const spy = vi.spyOn(runtime(), "db", "get").mockReturnValue(recording);
  try {
    return { result: await work(), queries };
  } finally {
    spy.mockRestore();
  }
}
