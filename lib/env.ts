import "server-only";
import { parseEnv, type Env } from "./env-schema";

let parsed: Env | undefined;

/**
 * The parsed environment. Parsed on first use rather than on import, because
 * `next build` imports server modules without the runtime's secrets; a server
 * still fails fast, since instrumentation.ts parses it at start-up.
 */
export function getEnv(): Env {
  parsed ??= parseEnv(process.env);
  return parsed;
}
