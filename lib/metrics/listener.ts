import "server-only";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { Registry } from "prom-client";
import { carriesApiKey } from "../auth/api-key-headers";
import { errorReply, errorResponse } from "../errors/error-response";
import { hasKeyPrefix } from "../keys/key-shaped";
import { log } from "../log";

// The metrics listener: its own port (METRICS_PORT), bound to METRICS_HOST
// (127.0.0.1 unless the operator says otherwise), never the public port, and
// serving one path. It is off the wall's two ways in: it takes no session
// and no key, and a request carrying a key is refused like any path off the
// public API (403 api_key_not_allowed), so a key sent here by mistake is
// never accepted anywhere but the 13 routes.

export interface MetricsListener {
  /** Where it listens, once it does (the port a test asked the system for with 0). */
  readonly address: Promise<{ host: string; port: number }>;
  close(): Promise<void>;
}

/** The request as the listener's thread passed it: what a scrape's answer depends on. */
interface ScrapeRequest {
  method: string | undefined;
  url: string | undefined;
  rawHeaders: string[];
}

type FromThread =
  | ({ type: "request"; id: number } & ScrapeRequest)
  | { type: "listening"; port: number }
  | { type: "listen_failed"; error: string };

/** By path from the project root, as lib/usage/sqlite-usage-writer.ts finds its worker. */
const WORKER_FILE = path.join(process.cwd(), "lib", "metrics", "metrics-listener-worker.mjs");

function requestHeaders(rawHeaders: string[]): Headers {
  const headers = new Headers();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    try {
      headers.append(rawHeaders[i]!, rawHeaders[i + 1]!);
    } catch {
      // A header value fetch's Headers refuses: Node accepted it, and it is no key.
    }
  }
  return headers;
}

/** The URL as sent, and decoded where it decodes: a key-shaped token in either is refused. */
function urlHoldsKey(url: string): boolean {
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // Not valid percent-encoding: the URL as sent is what there is to look at.
  }
  return hasKeyPrefix(url) || hasKeyPrefix(decoded);
}

async function answer(req: ScrapeRequest, metrics: () => Promise<string>, contentType: string, baseUrl: string) {
  const headers = { "Cache-Control": "no-store" };
  const url = req.url ?? "/";
  if (carriesApiKey(requestHeaders(req.rawHeaders)) || urlHoldsKey(url)) {
    return errorResponse("api_key_not_allowed", { baseUrl });
  }
  const path = url.split("?")[0];
  if (path !== "/metrics")
    return errorResponse("not_found", { baseUrl, message: "This listener serves /metrics only." });
  if (req.method !== "GET" && req.method !== "HEAD") {
    return errorResponse("method_not_allowed", { baseUrl, headers: { Allow: "GET, HEAD" } });
  }
  return new Response(await metrics(), { headers: { ...headers, "Content-Type": contentType } });
}

/** How long close() lets the thread finish what it is writing before it is ended. */
const CLOSE_GRACE_MS = 1_000;

/**
 * Listens in a thread of its own (lib/metrics/metrics-listener-worker.mjs, which says why); each request's answer
 * is made here and handed back to that thread to write.
 */
export function startMetricsListener(options: {
  registry: Registry;
  host: string;
  port: number;
  baseUrl: string;
}): MetricsListener {
  // The 503 the thread answers a flood with (lib/metrics/metrics-listener-worker.mjs), made here in the errors'
  // shape; the thread puts a request id of its own in place of this one.
  const busy = errorReply("service_unavailable", { baseUrl: options.baseUrl, headers: { "Retry-After": "1" } });
  const worker = new Worker(WORKER_FILE, {
    workerData: {
      host: options.host,
      port: options.port,
      busy: { status: busy.status, headers: busy.headers, body: busy.text, requestId: busy.header("X-Request-Id") },
    },
  });
  // Scrapes that arrive while a collection runs share it: each still reads what was current when it arrived.
  let collecting: Promise<string> | null = null;
  const metrics = () =>
    (collecting ??= options.registry.metrics().finally(() => {
      collecting = null;
    }));
  const exited = new Promise<void>((resolve) => worker.once("exit", () => resolve()));
  const address = new Promise<{ host: string; port: number }>((resolve, reject) => {
    // The thread failed (not a request: those are answered here): the instance serves on without metrics, and says so.
    worker.on("error", (error) => {
      log.error("metrics.listener_failed", { error: String(error.message) });
      reject(error);
    });
    worker.on("message", (message: FromThread) => {
      if (message.type === "listening") {
        log.info("metrics.listening", { host: options.host, port: message.port });
        resolve({ host: options.host, port: message.port });
      } else if (message.type === "listen_failed") {
        // A port taken or an address not this machine's: the instance serves on without metrics, and says so.
        log.error("metrics.listen_failed", { host: options.host, port: options.port, error: message.error });
        reject(new Error(message.error));
        void worker.terminate();
      } else {
        void reply(message.id, message);
      }
    });
  });
  address.catch(() => {});

  async function reply(id: number, req: ScrapeRequest) {
    let response: Response;
    let body: ArrayBuffer;
    try {
      response = await answer(req, metrics, options.registry.contentType, options.baseUrl);
      body = await response.arrayBuffer();
    } catch (error) {
      log.error("metrics.scrape_failed", { error: String((error as Error)?.message) });
      response = errorResponse("internal_error", { baseUrl: options.baseUrl });
      body = await response.arrayBuffer();
    }
    worker.postMessage(
      { type: "response", id, status: response.status, headers: Object.fromEntries(response.headers), body },
      [body],
    );
  }

  return {
    address,
    close: async () => {
      worker.postMessage({ type: "close" });
      const grace = setTimeout(() => void worker.terminate(), CLOSE_GRACE_MS);
      await exited;
      clearTimeout(grace);
    },
  };
}
