// The arguments of a server action, as React encodes them (its "reply"): a
// JSON model in field "0" whose strings starting with "$" refer to other
// fields or stand for values JSON has no word for. React decodes them inside
// Next, before any of our code runs, and a reference it cannot follow fails
// the request with a bare 500. This checks a reply against the part of the
// format our forms send (lib/security/action-body.ts refuses the rest with
// 400): plain JSON, "$$" escapes, undefined, NaN, the infinities, -0, dates,
// big integers, a form's fields ("$K"), a promise of another field ("$@",
// how a form bound to arguments sends them), references into the model that
// React writes for a value met twice, and (fetch actions only) temporary
// references. Streams, files, typed arrays, maps, sets and server references
// are never arguments of ours.

/** React's default limit on array slots in one reply (its `arraySizeLimit`), counted here generously. */
const SLOT_LIMIT = 1_000_000;
const HEX = /^[0-9a-f]+$/;
const BIG_INTEGER = /^-?\d{1,300}$/;
// Tags whose value React makes from the string alone, never failing.
const SELF_CONTAINED = new Set(["$", "u", "I", "N", "-", "D", "K"]);

export interface ReplySource {
  /** The model of chunk 0, as sent. */
  root: string;
  /** A field of the submission, for the other chunks: `prefix` + the chunk's number. */
  field(name: string): string | undefined;
  prefix: string;
  /** Whether the decoder was given a set of temporary references (fetch actions only). */
  temporaryReferences: boolean;
}

const INVALID = Symbol("invalid");
type Chunk = unknown;

/** Whether React can decode `source` without failing; the root model must be a JSON array when `rootArray` is set. */
export function replyDecodes(source: ReplySource, { rootArray }: { rootArray: boolean }): boolean {
  const chunks = new Map<number, Chunk | typeof INVALID>();
  let slots = 0;

  function chunk(id: number): Chunk | typeof INVALID {
    const known = chunks.get(id);
    if (known !== undefined || chunks.has(id)) return known;
    const text = id === 0 ? source.root : source.field(`${source.prefix}${id}`);
    let model: unknown;
    try {
      model = typeof text === "string" ? JSON.parse(text) : INVALID;
    } catch {
      model = INVALID;
    }
    chunks.set(id, model); // before walking it: a chunk may refer to itself
    if (model !== INVALID && !walk(model)) chunks.set(id, (model = INVALID));
    return model;
  }

  function walk(value: unknown): boolean {
    if (typeof value === "string") return value.startsWith("$") ? reference(value) : true;
    if (typeof value !== "object" || value === null) return true;
    const children = Array.isArray(value) ? value : Object.values(value);
    if (Array.isArray(value)) slots += value.length + 1;
    return slots <= SLOT_LIMIT && children.every(walk);
  }

  function reference(text: string): boolean {
    const tag = text.charAt(1);
    if (SELF_CONTAINED.has(tag)) return true;
    if (tag === "n") return BIG_INTEGER.test(text.slice(2));
    if (tag === "T") return source.temporaryReferences;
    if (tag === "@") return HEX.test(text.slice(2)) && chunk(parseInt(text.slice(2), 16)) !== INVALID;
    const [id = "", ...path] = text.slice(1).split(":");
    if (!HEX.test(id)) return false;
    let target = chunk(parseInt(id, 16));
    for (const key of path) {
      // React follows a path through plain objects and arrays only.
      if (typeof target !== "object" || target === null || !Object.hasOwn(target, key)) return false;
      target = (target as Record<string, unknown>)[key];
    }
    if (target === INVALID) return false;
    slots += typeof target === "object" && target !== null ? JSON.stringify(target).length : 1;
    return slots <= SLOT_LIMIT;
  }

  const root = chunk(0);
  return root !== INVALID && (!rootArray || Array.isArray(root));
}
