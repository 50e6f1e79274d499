import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import { planUsageBatch, type UsageBatchPlan } from "./batch-plan";
import type { UsageEvent } from "./event";

// The usage buffer's writer on SQLite: each batch is planned here (cheap) and
// written by a worker thread with its own connection
// (lib/usage/sqlite-usage-worker.mjs), so the request thread never waits on
// SQLite's synchronous driver. One worker per writer, started on the first
// batch and again after a crash.

/** By path from the project root, as the app finds its database: the gate's bundle and Next's copy run from there. */
const WORKER_FILE = path.join(process.cwd(), "lib", "usage", "sqlite-usage-worker.mjs");

type Reply = { id: number; ok: true } | { id: number; ok: false; error: string };

export interface SqliteUsageWriter {
  write(events: UsageEvent[]): Promise<void>;
  close(): Promise<void>;
}

interface Thread {
  worker: Worker;
  /** The batches this thread was given and has not answered: a thread that dies fails its own, never a newer thread's. */
  pending: Map<number, { resolve: () => void; reject: (error: Error) => void }>;
}

export function sqliteUsageWriter(file: string): SqliteUsageWriter {
  let current: Thread | null = null;
  let nextId = 1;

  function started(): Thread {
    if (current) return current;
    const thread: Thread = {
      worker: new Worker(WORKER_FILE, { workerData: { file } }),
      pending: new Map(),
    };
    thread.worker.on("message", (reply: Reply) => {
      const waiting = thread.pending.get(reply.id);
      thread.pending.delete(reply.id);
      // Idle, it must not keep a process (a test, the CLI) alive; busy, it must, or a last flush could be cut off.
      if (thread.pending.size === 0) thread.worker.unref();
      if (!waiting) return;
      if (reply.ok) waiting.resolve();
      else waiting.reject(new Error(reply.error));
    });
    const lost = (error: Error) => {
      if (current === thread) current = null;
      for (const { reject } of thread.pending.values()) reject(error);
      thread.pending.clear();
    };
    // A thread's error arrives cloned: an SqliteError keeps its code and loses its message.
    thread.worker.on("error", (error: Error & { code?: string }) =>
      lost(new Error(`the usage writer failed: ${error?.message || error?.code || "unknown error"}`)),
    );
    thread.worker.on("exit", (code) => lost(new Error(`the usage writer stopped (exit code ${code})`)));
    thread.worker.unref();
    current = thread;
    return thread;
  }

  return {
    write(events) {
      if (events.length === 0) return Promise.resolve();
      const batch: UsageBatchPlan = planUsageBatch(events);
      const thread = started();
      const id = nextId++;
      thread.worker.ref();
      return new Promise<void>((resolve, reject) => {
        thread.pending.set(id, { resolve, reject });
        thread.worker.postMessage({ id, batch });
      });
    },
    /**
     * Stops the thread. It never blocks inside SQLite (the worker waits for a
     * lock in its event loop), so stopping it is safe at any time; a batch it
     * had not written yet is reported as failed.
     */
    async close() {
      const thread = current;
      current = null;
      if (thread) await thread.worker.terminate();
    },
  };
}
