import { z } from "zod";
import { DEFAULT_USAGE_RANGE, statusClassSchema, usageRangeSchema, usageRouteSchema } from "./usage-range";

const single = (value: unknown) => (Array.isArray(value) ? value[0] : value);
const emptyAsMissing = (value: unknown) => (value === "" ? undefined : single(value));

/** The key page's usage query string. Anything unknown falls back to the default, as links may be old. */
export const keyUsagePageQuerySchema = z.object({
  usage: z.preprocess(single, usageRangeSchema.catch(DEFAULT_USAGE_RANGE)),
  status: z.preprocess(emptyAsMissing, statusClassSchema.optional().catch(undefined)),
  route: z.preprocess(emptyAsMissing, usageRouteSchema.optional().catch(undefined)),
  page: z.preprocess(single, z.coerce.number().int().min(1).max(100_000).optional().catch(undefined)),
});

/** The CSV route's query string: strict, since a download of the wrong range should say why instead. */
export const usageCsvQuerySchema = z.object({
  range: usageRangeSchema.default(DEFAULT_USAGE_RANGE),
  status: z.preprocess((value) => (value === "" ? undefined : value), statusClassSchema.optional()),
  route: z.preprocess((value) => (value === "" ? undefined : value), usageRouteSchema.optional()),
});
