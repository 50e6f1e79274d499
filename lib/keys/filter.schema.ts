import { z } from "zod";
import { KEY_ENVIRONMENTS, KEY_ID_PATTERN } from "./format";
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
  // The key just created, shown even when it falls outside the filters.
  created: z.preprocess(single, keyIdParam),
  page: z.preprocess(single, z.coerce.number().int().min(1).max(100_000).optional().catch(undefined)),
  key: z.preprocess(single, keyIdParam),
});

/** The account page's query string: the page of its activity; anything else falls back to page 1. */
export const pageQuerySchema = keyListQuerySchema.pick({ page: true });
