// Request bodies of the three model routes, after the public wire formats they
// follow (OpenAI Chat Completions, Anthropic Messages, Gemini generateContent).
// Fields the sandbox does not use are accepted and ignored, as the real
// services accept options a client library sends.
import { z } from "zod";
import { catalog } from "../catalog/model-catalog";

const textModelIds = new Set(catalog.textModels.map((model) => model.id));

export const textModelSchema = z
  .string({ error: "model is required: one of the ids GET /api/v1/models lists." })
  .refine((id) => textModelIds.has(id), { message: "Unknown model: use one of the ids GET /api/v1/models lists." });

const textPart = z.object({ type: z.literal("text"), text: z.string() });
const content = z.union([z.string(), z.array(z.union([textPart, z.looseObject({ type: z.string() })]))]);

export const chatCompletionRequestSchema = z.looseObject({
  model: textModelSchema,
  messages: z
    .array(
      z.looseObject({
        role: z.enum(["system", "developer", "user", "assistant", "tool"]),
        content: content.nullable().optional(),
      }),
      {
        error: "messages is required: a non-empty array of { role, content }.",
      },
    )
    .min(1, "messages must hold at least one message."),
  stream: z.boolean().optional(),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullable().optional(),
  max_tokens: z.number().int().min(1).nullable().optional(),
  max_completion_tokens: z.number().int().min(1).nullable().optional(),
});

export const messagesRequestSchema = z.looseObject({
  model: textModelSchema,
  max_tokens: z.number({ error: "max_tokens is required: a whole number of at least 1." }).int().min(1),
  messages: z
    .array(z.looseObject({ role: z.enum(["user", "assistant"]), content }), {
      error: "messages is required: a non-empty array of { role, content }.",
    })
    .min(1, "messages must hold at least one message."),
  system: content.optional(),
  stream: z.boolean().optional(),
});

const geminiPart = z.looseObject({ text: z.string().optional() });

export const generateContentRequestSchema = z.looseObject({
  contents: z
    .array(z.looseObject({ role: z.enum(["user", "model"]).optional(), parts: z.array(geminiPart).min(1) }), {
      error: "contents is required: a non-empty array of { role, parts: [{ text }] }.",
    })
    .min(1, "contents must hold at least one entry."),
  systemInstruction: z.looseObject({ parts: z.array(geminiPart) }).optional(),
  generationConfig: z.looseObject({ maxOutputTokens: z.number().int().min(1).optional() }).optional(),
});

/** The text of a message's content, whether a string or an array of parts. */
export function contentText(value: z.infer<typeof content> | null | undefined): string {
  if (value == null) return "";
  if (typeof value === "string") return value;
  return value.map((part) => ("text" in part && typeof part.text === "string" ? part.text : "")).join("");
}
