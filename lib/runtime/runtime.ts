import "server-only";
import { createRuntime, type Runtime } from "./create-runtime";

export type { Runtime } from "./create-runtime";

// The process's runtime, where the code on Next's side finds it. server.mjs
// creates it once (in the public API's bundle, which serves the API with it)
// and publishes it here before Next starts; Next's bundles are separate copies
// of every module, so a property of globalThis is the one place both see. This
// file and lib/http/native-date.mjs (with its reader) are the only ones that
// may touch globalThis (eslint.config.mjs).

const slot = globalThis as unknown as { keyportRuntime?: Runtime };

/** Makes `runtime` the one every later `runtime()` call returns, in every bundle of this process. */
export function publishRuntime(runtime: Runtime): void {
  slot.keyportRuntime = runtime;
}

/**
 * The process's runtime. Where nothing published one (a test file, the
 * operator CLI, a script), the first call creates it from the environment,
 * so there is still exactly one per process.
 */
export function runtime(): Runtime {
  return (slot.keyportRuntime ??= createRuntime());
}
