// Instances of the app in the test process, each a runtime of its own (its
// own pools, key cache, change listener and lease) on the test's database, as
// separate servers would be, each serving the public API through the app's
// gate (lib/public-api/app-gate.ts), without usage. PostgreSQL only.
import { expect, vi } from "vitest";
import { getEnv } from "@/lib/env";
import { gateServices } from "@/lib/public-api/app-gate";
import { asFetchHandler, createGate } from "@/lib/public-api/gate";
import { createRuntime, type Runtime } from "@/lib/runtime/create-runtime";
import { DISCARD_USAGE } from "@/lib/usage/event";
import type { DatabaseProxy } from "./database-proxy";

export interface Instance {
  runtime: Runtime;
  /** GET /api/v1/models with this key: the status, and whether this instance's cache answered. */
  models(secret: string): Promise<{ status: number; code?: string }>;
  /** The key store's reads since the last call. */
  reads(): number;
}

const started: Instance[] = [];
/** Proxies a test made: released and closed by stopInstances. */
export const proxies: DatabaseProxy[] = [];

/**
 * Starts an instance and waits until it trusts its cache. `listenUrl`: its listener's database URL (a proxy the test
 * can cut or hold); `databaseUrl`: its pools' (a proxy too, to cut the database away from it as a restart would).
 */
export async function startInstance(listenUrl?: string, databaseUrl?: string): Promise<Instance> {
  const made = createRuntime({
    ...getEnv(),
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    DATABASE_LISTEN_URL: listenUrl ?? databaseUrl ?? getEnv().DATABASE_URL,
  });
  // Every read of the instance's key store counted (the cache calls the store's methods as they are when it reads).
  const store = made.keyStore;
  let reads = 0;
  const { byDigest, versionOf } = { byDigest: store.byDigest.bind(store), versionOf: store.versionOf.bind(store) };
  Object.assign(store, {
    byDigest: (digest: string) => (reads++, byDigest(digest)),
    versionOf: (id: string) => (reads++, versionOf(id)),
  });
  made.instance!.start();
  await vi.waitFor(() => expect(made.instance!.trusted()).toBe(true), { timeout: 10_000 });
  const gate = asFetchHandler(createGate({ ...gateServices(made), usage: DISCARD_USAGE }));
  const instance: Instance = {
    runtime: made,
    async models(secret) {
      const response = await gate(
        new Request("http://localhost/api/v1/models", { headers: { authorization: `Bearer ${secret}` } }),
      );
      const body = (await response.json()) as { error?: { code: string } };
      return { status: response.status, ...(body.error ? { code: body.error.code } : {}) };
    },
    reads() {
      const count = reads;
      reads = 0;
      return count;
    },
  };
  started.push(instance);
  return instance;
}

/** Sends the key until this instance answers it from its cache with no database read. */
export async function expectServedFromCache(instance: Instance, secret: string) {
  expect(await instance.models(secret)).toEqual({ status: 200 });
  instance.reads();
  expect(await instance.models(secret)).toEqual({ status: 200 });
  expect(instance.reads()).toBe(0);
}

/** Stops every instance started (they leave GateInstance), then releases and closes the proxies. */
export async function stopInstances() {
  for (const proxy of proxies) proxy.release();
  for (const { runtime: made } of started.splice(0)) {
    await made.close();
    await made.gatePool.end();
  }
  for (const proxy of proxies.splice(0)) await proxy.close();
}
