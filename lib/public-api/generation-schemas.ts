import { z } from "zod";
import { catalog } from "../catalog/model-catalog";

const mediaModelIds = new Set(catalog.mediaModels.map((model) => model.id));

const prompt = z
  .string({ error: "prompt is required: the text to generate from." })
  .trim()
  .min(1, "prompt must not be empty.")
  .max(4000, "prompt must be at most 4000 characters.")
  .describe("The text to generate from; kept with the generation, so never an API key (400 api_key_misplaced)");

const inputFileId = z
  .string()
  .regex(/^file_[0-9A-Za-z]{24}$/, "input_file_id must be the id of a file you uploaded (file_...).")
  .nullable()
  .optional();

export const createGenerationRequestSchema = z.object({
  model: z
    .string({ error: "model is required: one of the ids GET /api/v1/media_models lists." })
    .refine((id) => mediaModelIds.has(id), {
      message: "Unknown model: use one of the ids GET /api/v1/media_models lists.",
    }),
  prompt,
  input_file_id: inputFileId,
});

export const createAppGenerationRequestSchema = z.object({ prompt, input_file_id: inputFileId });

export const IDEMPOTENCY_KEY_PATTERN = /^[\x21-\x7e]{1,255}$/;
