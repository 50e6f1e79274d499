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

// What the catalog routes answer. The gate parses every handler's output
// through its route's schema, so a field that is not declared here cannot
// leave the server.
const listOf = <T extends z.ZodType>(item: T) =>
  z.object({ object: z.literal("list"), data: z.array(item), has_more: z.boolean() });

export const mediaModelSchema = z.object({
  id: z.string(),
  object: z.literal("media_model"),
  name: z.string(),
  modality: z.enum(["image", "video", "audio"]),
  created: z.number().int(),
});

export const appSchema = z.object({
  id: z.string(),
  object: z.literal("app"),
  name: z.string(),
  description: z.string(),
  model: z.string(),
  created: z.number().int(),
});

export const modelSchema = z.object({
  id: z.string(),
  object: z.literal("model"),
  created: z.number().int(),
  owned_by: z.string(),
});

export const mediaModelListSchema = listOf(mediaModelSchema);
export const appListSchema = listOf(appSchema);
export const modelListSchema = listOf(modelSchema);
