import { z } from "zod";

/** `limit` (1 to 100, default 20) and an `after` cursor: the id of the last item already seen. */
export const listQuerySchema = z.object({
  limit: z.coerce
    .number({ error: "limit must be a whole number from 1 to 100." })
    .int("limit must be a whole number from 1 to 100.")
    .min(1, "limit must be a whole number from 1 to 100.")
    .max(100, "limit must be a whole number from 1 to 100.")
    .default(20),
  after: z.string().min(1).max(128).optional(),
});

export type ListQuery = z.infer<typeof listQuerySchema>;
