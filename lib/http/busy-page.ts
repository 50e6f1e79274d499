import type { IncomingMessage, ServerResponse } from "node:http";
import { DATABASE_BUSY_RETRY_AFTER_SECONDS } from "../database-busy";
import { strictTransportSecurity } from "../security/hsts";
import type { RequestScope, RequestState } from "./request-scope";
import { smallPage } from "./screen-request.mjs";

// Next answers a page or a server action that threw with a 500, and has no
// way for our code to choose another status (only 401, 403 and 404). When the
// cause was a database too busy to take the query in time (lib/database-busy.ts),
// that is no server error but a moment's overload: server.mjs hands each
// request to Next through this listener, which answers such a 500 with 503,
// Retry-After and a page that says to try again. Any other 500 is left as
// Next wrote it. A browser running the page's script sees the error page of
// app/error.tsx instead (its navigation got this page). A server action answers
// a busy database itself, in its form, what was typed kept
// (lib/web/define-action.ts): only the page drawn after a plain form post can
// still end here.

type NextHandler = (req: IncomingMessage, res: ServerResponse) => unknown;

function busyPage(baseUrl: string) {
  const hsts = strictTransportSecurity(baseUrl);
  return smallPage(
    503,
    "Keyport is busy",
    "Too many requests reached Keyport at once, and this one could not be answered in time: try again in a few seconds.",
    {
      "Retry-After": String(DATABASE_BUSY_RETRY_AFTER_SECONDS),
      ...(hsts ? { "Strict-Transport-Security": hsts } : {}),
    },
  );
}

/**
 * Replaces what Next writes to `res` with the busy page, if Next's answer is a
 * 5xx and `state` says the database was busy by the time its head is written.
 */
function divertBusyAnswer(req: IncomingMessage, res: ServerResponse, state: RequestState, baseUrl: string) {
  const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => ServerResponse;
  const write = res.write.bind(res) as (...args: unknown[]) => boolean;
  const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
  let diverted = false;
  const divert = (status: number) => {
    if (!diverted && !res.headersSent && status >= 500 && state.databaseBusy) diverted = true;
    return diverted;
  };
  // Node's write and end call writeHead themselves when nothing was written yet: each is checked.
  res.writeHead = ((status: number, ...rest: unknown[]) =>
    divert(status) ? res : writeHead(status, ...rest)) as typeof res.writeHead;
  res.write = ((...args: unknown[]) => {
    if (!divert(res.statusCode)) return write(...args);
    const done = args.findLast((arg) => typeof arg === "function") as (() => void) | undefined;
    if (done) process.nextTick(done);
    return true;
  }) as typeof res.write;
  res.end = ((...args: unknown[]) => {
    if (!divert(res.statusCode)) return end(...args);
    for (const name of res.getHeaderNames()) res.removeHeader(name);
    const page = busyPage(baseUrl);
    writeHead(page.status, page.headers);
    const done = args.findLast((arg) => typeof arg === "function") as (() => void) | undefined;
    return end(req.method === "HEAD" ? undefined : page.body, done);
  }) as typeof res.end;
}

/** Next's request handler, with busy answers turned into 503 (see above). */
export function busyAwareListener(scope: RequestScope, handle: NextHandler, baseUrl: string) {
  return (req: IncomingMessage, res: ServerResponse) => {
    const state: RequestState = { databaseBusy: false };
    divertBusyAnswer(req, res, state, baseUrl);
    return scope.run(state, () => handle(req, res));
  };
}
