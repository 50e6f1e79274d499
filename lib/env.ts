import "server-only";
import { parseEnv, type Env } from "./env-schema";

// eslint-disable-next-line no-restricted-syntax -- a memo of the parse: the environment is the runtime's input, read before there is a runtime.
let parsed: Env | undefined;

/**
 * The parsed environment. Parsed on first use rather than on import, because
 * `next build` imports server modules without the runtime's secrets; a server
 * still fails fast, since server.mjs checks it at start-up (lib/startup-check.ts).
 */
export function getEnv(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}
