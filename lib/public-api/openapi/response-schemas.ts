// What the routes without a registry response schema answer, written down
// for the document only (nothing parses with these). The generation and file
// shapes are checked against the handlers' types in tests/unit/openapi.test.ts;
// the model shapes follow lib/public-api/handlers/models.ts and list the main
// fields of the public formats they copy (OpenAI, Anthropic, Gemini).
import { z } from "zod";

const int = z.number().int();
const unixSeconds = int.describe("Unix time, in seconds.");

export const generationSchema = z.object({
  id: z.string().describe("gen_ and 24 base62 characters."),
  object: z.literal("generation"),
  status: z.enum(["queued", "running", "succeeded", "failed"]),
  model: z.string(),
  app: z.string().nullable().describe("The app it was created with, if any."),
  prompt: z.string(),
  input_file_id: z.string().nullable(),
  output: z.object({ type: z.string(), url: z.string() }).nullable().describe("Set once the generation succeeded."),
  error: z.object({ code: z.string(), message: z.string() }).nullable().describe("Set once the generation failed."),
  created_at: unixSeconds,
  started_at: unixSeconds.nullable(),
  completed_at: unixSeconds.nullable(),
});

export const fileSchema = z.object({
  id: z.string().describe("file_ and 24 base62 characters; pass it as input_file_id."),
  object: z.literal("file"),
  bytes: int,
  filename: z.string(),
  content_type: z.string(),
  purpose: z.string().nullable(),
  created_at: unixSeconds,
});

export const chatCompletionSchema = z.looseObject({
  id: z.string(),
  object: z.literal("chat.completion"),
  created: unixSeconds,
  model: z.string(),
  system_fingerprint: z.string(),
  choices: z.array(
    z.looseObject({
      index: int,
      message: z.looseObject({ role: z.literal("assistant"), content: z.string().nullable() }),
      finish_reason: z.enum(["stop", "length"]),
    }),
  ),
  usage: z.object({ prompt_tokens: int, completion_tokens: int, total_tokens: int }),
});

export const messageSchema = z.looseObject({
  id: z.string(),
  type: z.literal("message"),
  role: z.literal("assistant"),
  model: z.string(),
  content: z.array(z.looseObject({ type: z.literal("text"), text: z.string() })),
  stop_reason: z.enum(["end_turn", "max_tokens"]).nullable(),
  stop_sequence: z.string().nullable(),
  usage: z.object({ input_tokens: int, output_tokens: int }),
});

export const generateContentResponseSchema = z.looseObject({
  candidates: z.array(
    z.looseObject({
      content: z.object({ role: z.literal("model"), parts: z.array(z.object({ text: z.string() })) }),
      finishReason: z.enum(["STOP", "MAX_TOKENS"]).optional().describe("Only on the last piece of a stream."),
      index: int,
    }),
  ),
  usageMetadata: z.object({ promptTokenCount: int, candidatesTokenCount: int, totalTokenCount: int }),
  modelVersion: z.string(),
  responseId: z.string(),
});
