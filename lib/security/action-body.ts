import busboy from "busboy";
import { z } from "zod";
import { replyDecodes, type ReplySource } from "./action-reply";

// A POST that Next would read as a server action, checked before Next reads
// it (proxy.ts): Next parses the body and React decodes the arguments before
// any of our code runs, and a body either cannot read fails with a bare 500
// and a digest. Such a body is answered 400 here (a body over Next's limit,
// 413); every body our pages' forms send passes, as the end-to-end tests that
// post them show. The parsers are the ones Next uses for each kind: busboy
// for an action posted by the page's script (a `Next-Action` header), the
// platform's FormData for a form posted without it.

/** Next's server-action body limit (serverActions.bodySizeLimit, which we leave at its default). */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;

export type ActionBodyVerdict = { ok: true } | { ok: false; status: 400 | 413 };

const REFUSED = { ok: false, status: 400 } as const;
const ACCEPTED = { ok: true } as const;

/** The descriptor of a form bound to arguments, `$ACTION_<n>:0`: the action's id and its arguments. */
const boundActionDescriptor = z.object({ id: z.string(), bound: z.unknown() });

/**
 * Whether Next would try to decode this POST as a server action (its
 * getServerActionRequestMetadata); a urlencoded body it never decodes.
 */
export function mayBeServerAction(headers: Headers): boolean {
  const contentType = headers.get("content-type") ?? "";
  if (contentType === "application/x-www-form-urlencoded") return false;
  return headers.has("next-action") || contentType.startsWith("multipart/form-data");
}

/** The body, or null when it is longer than Next would read. */
async function limitedBody(request: Request): Promise<Buffer | null> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  if (declared > ACTION_BODY_LIMIT_BYTES) return null;
  const chunks: Uint8Array[] = [];
  let size = 0;
  // The proxy's own copy of the body: Next hands the handler the whole body again afterwards.
  const reader = request.body?.getReader();
  for (let read = await reader?.read(); read && !read.done; read = await reader!.read()) {
    size += read.value.byteLength;
    if (size > ACTION_BODY_LIMIT_BYTES) {
      void reader!.cancel().catch(() => {});
      return null;
    }
    chunks.push(read.value);
  }
  return Buffer.concat(chunks);
}

/**
 * The number of the chunk React resolves with a field of this name as it
 * arrives (its resolveField: the name as a JavaScript number, so "00" and ""
 * are chunk 0 too), or null for a field it only keeps.
 */
function chunkNumber(name: string): number | null {
  const number = +(name.startsWith("S") && name.length > 1 ? name.slice(1) : name);
  return Number.isNaN(number) ? null : number;
}

/** A multipart body's text fields as busboy reads them for a fetch action, or null if React could not take them. */
function busboyFields(contentType: string, body: Buffer): Promise<Map<string, string> | null> {
  return new Promise((resolve) => {
    const fields = new Map<string, string>();
    const chunks = new Set<number>();
    let parser: busboy.Busboy;
    try {
      parser = busboy({ headers: { "content-type": contentType }, defParamCharset: "utf8" });
    } catch {
      return resolve(null); // no boundary, or not multipart at all
    }
    const refuse = () => parser.destroy(new Error("a part React cannot take"));
    parser.on("field", (name: string | undefined, value) => {
      // A part without a name fails React outright; a second field for one chunk fails it as a stream's data.
      const chunk = name === undefined ? null : chunkNumber(name);
      if (name === undefined || (chunk !== null && chunks.has(chunk))) return refuse();
      if (chunk !== null) chunks.add(chunk);
      if (!fields.has(name)) fields.set(name, value);
    });
    parser.on("file", (name: string | undefined, stream, info) => {
      stream.on("error", () => {}); // the parser's own error says it
      stream.resume();
      // React refuses base64 file parts (decodeReplyFromBusboy), and a part without a name.
      if (name === undefined || info.encoding.toLowerCase() === "base64") refuse();
    });
    parser.on("error", () => resolve(null));
    parser.on("close", () => resolve(fields));
    parser.end(body);
  });
}

/** The multipart body as Next reads a form posted without a `Next-Action` header, or null if it cannot. */
async function platformFormData(contentType: string, body: Buffer): Promise<FormData | null> {
  try {
    return await new Request("http://keyport.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: new Uint8Array(body),
    }).formData();
  } catch {
    return null;
  }
}

/** The descriptor of one form bound to arguments, checked as React decodes it (`prefix` is `$ACTION_<n>:`). */
function boundActionDecodes(form: FormData, prefix: string): boolean {
  // React keeps the last text value of a name here.
  const field = (name: string) => {
    const value = form.getAll(name).at(-1);
    return typeof value === "string" ? value : undefined;
  };
  const root = field(`${prefix}0`);
  if (root === undefined || !replyDecodes({ root, field, prefix, temporaryReferences: false }, { rootArray: false })) {
    return false;
  }
  const parsed = boundActionDescriptor.safeParse(JSON.parse(root));
  if (!parsed.success) return false;
  // Bound arguments sent as a promise ("$@1", as our forms send them) are spread once it settles: an array.
  const bound = parsed.data.bound;
  if (typeof bound !== "string" || !bound.startsWith("$@")) return true;
  const settled = field(`${prefix}${parseInt(bound.slice(2), 16)}`);
  return settled !== undefined && Array.isArray(JSON.parse(settled));
}

/** Every form bound to arguments (`$ACTION_REF_<n>`) has a descriptor React can decode. */
function boundActionsDecode(form: FormData): boolean {
  for (const key of form.keys()) {
    if (key.startsWith("$ACTION_REF_") && !boundActionDecodes(form, `$ACTION_${key.slice("$ACTION_REF_".length)}:`)) {
      return false;
    }
  }
  return true;
}

/** Checks a POST that may be a server action; any other request passes unread. */
export async function screenActionBody(request: Request): Promise<ActionBodyVerdict> {
  if (request.method !== "POST" || !mayBeServerAction(request.headers)) return ACCEPTED;
  const body = await limitedBody(request);
  if (body === null) return { ok: false, status: 413 };
  const contentType = request.headers.get("content-type") ?? "";
  const multipart = contentType.startsWith("multipart/form-data");
  if (!request.headers.has("next-action")) {
    const form = await platformFormData(contentType, body);
    return form && boundActionsDecode(form) ? ACCEPTED : REFUSED;
  }
  // A fetch action: its arguments are field "0" of a multipart body, or the whole of any other body.
  let source: ReplySource;
  if (multipart) {
    const fields = await busboyFields(contentType, body);
    const root = fields?.get("0");
    if (!fields || root === undefined) return REFUSED;
    // React decodes field 0 as it arrives: a field it refers to must have come before it (React's own client
    // sends field 0 last). A Map keeps the order the fields came in.
    const names = [...fields.keys()];
    const before = new Set(names.slice(0, names.indexOf("0")));
    const field = (name: string) => (before.has(name) ? fields.get(name) : undefined);
    source = { root, field, prefix: "", temporaryReferences: true };
  } else {
    source = { root: body.toString("utf8"), field: () => undefined, prefix: "", temporaryReferences: true };
  }
  return replyDecodes(source, { rootArray: true }) ? ACCEPTED : REFUSED;
}
