import type { KeyEnvironment } from "../keys/format";

/** What the gate hands a handler: the verified key, and the request already read and checked. */
export interface HandlerContext<Query = unknown> {
  request: Request;
  requestId: string;
  key: { id: string; publicId: string; userId: string; environment: KeyEnvironment };
  params: Record<string, string>;
  query: Query;
  /** The JSON body (parsed) or the multipart form, for POST routes. */
  body: unknown;
}

/** A handler returns a Response, or plain data the gate sends as JSON with status 200. */
export type Handler = (context: HandlerContext<never>) => Promise<Response | object>;
