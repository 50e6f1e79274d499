import { z } from "zod";
import { KEY_ENVIRONMENTS, KEY_ID_PATTERN } from "./format";
import { KEY_SEARCH_MAX } from "./search";
import { withoutUnsafe } from "../text";
import { TEAM_ACTIVITY_KINDS } from "../activity-events";
import { KEY_STATUSES, type KeyStatus } from "./status";

const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);

const keyIdParam = z.string().regex(KEY_ID_PATTERN).optional().catch(undefined);

/** The dashboard's query string. Anything unknown falls back to "all" or page 1. */
export const keyListQuerySchema = z.object({
  env: z.preprocess(single, z.enum(KEY_ENVIRONMENTS).optional().catch(undefined)),
  status: z.preprocess(
    single,
    z
      .enum(KEY_STATUSES as [KeyStatus, ...KeyStatus[]])
      .optional()
      .catch(undefined),
  ),
  // "Show revoked and expired": a checkbox, so "1" when ticked and absent otherwise.
  inactive: z.preprocess(single, z.literal("1").optional().catch(undefined)),
  // The key list's search: part of a label, a key id or the shown part of a secret. Longer than any of them is cut.
  q: z.preprocess(
    single,
    z
      .string()
      .trim()
      // Control characters taken out: SQLite reads a string only up to a NUL, so "%00" matched every key.
      .transform((text) => withoutUnsafe(text).trim().slice(0, KEY_SEARCH_MAX) || undefined)
      .optional()
      .catch(undefined),
  ),
  // The key just created, shown even when it falls outside the filters.
  created: z.preprocess(single, keyIdParam),
  page: z.preprocess(single, z.coerce.number().int().min(1).max(100_000).optional().catch(undefined)),
  key: z.preprocess(single, keyIdParam),
});

/** The team activity page's query string: a key, a kind of event, a page. */
export const activityQuerySchema = keyListQuerySchema.pick({ key: true, page: true }).extend({
  kind: z.preprocess(single, z.enum(TEAM_ACTIVITY_KINDS).optional().catch(undefined)),
});

/** The account page's query string: the page of its activity; anything else falls back to page 1. */
export const pageQuerySchema = keyListQuerySchema.pick({ page: true });
