import { z } from "zod";
import { KEY_ENVIRONMENTS } from "./format";
import { KEY_STATUSES, type KeyStatus } from "./status";

const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);

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
  page: z.preprocess(single, z.coerce.number().int().min(1).max(100_000).optional().catch(undefined)),
  key: z.preprocess(
    single,
    z
      .string()
      .regex(/^key_[0-9A-Za-z]{16}$/)
      .optional()
      .catch(undefined),
  ),
});
