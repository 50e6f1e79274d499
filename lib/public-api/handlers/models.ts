import { randomBytes } from "node:crypto";
import type { z } from "zod";
import { getEnv } from "../../env";
import { sandboxReply, streamTokens, type SandboxReply } from "../../sandbox/model";
import { ApiError } from "../api-error";
import { defineHandler, handlerRoute } from "../define-handler";
import { contentText, generateContentRequestSchema, textModelSchema } from "../model-schemas";
import { sseChunks, streamResponse, STREAM_HEADERS, type SseEvent } from "../sse";

type GenerateRequest = z.infer<typeof generateContentRequestSchema>;

const now = () => Math.floor(Date.now() / 1000);
const randomId = (prefix: string) => `${prefix}${randomBytes(12).toString("base64url")}`;
const tokenDelay = () => getEnv().SANDBOX_TOKEN_DELAY_MS;

function lastOf<T extends { role?: string | undefined }>(items: T[], role: string): T | undefined {
  return [...items].reverse().find((item) => item.role === role) ?? items.at(-1);
}

// POST /api/v1/chat/completions: OpenAI's Chat Completions shapes.
export const createChatCompletion = defineHandler(handlerRoute("create_chat_completion"))(async ({ body: request }) => {
  const prompt = contentText(lastOf(request.messages, "user")?.content);
  const reply = sandboxReply(request.model, prompt, request.max_completion_tokens ?? request.max_tokens ?? undefined);
  const id = randomId("chatcmpl-");
  const created = now();
  const finish = reply.truncated ? "length" : "stop";
  const usage = {
    prompt_tokens: reply.promptTokens,
    completion_tokens: reply.completionTokens,
    total_tokens: reply.promptTokens + reply.completionTokens,
  };
  if (!request.stream) {
    return {
      id,
      object: "chat.completion",
      created,
      model: request.model,
      system_fingerprint: "keyport-sandbox",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: reply.text, refusal: null },
          logprobs: null,
          finish_reason: finish,
        },
      ],
      usage,
    };
  }
  const chunk = (delta: object, finishReason: string | null, extra: object = {}) => ({
    id,
    object: "chat.completion.chunk",
    created,
    model: request.model,
    system_fingerprint: "keyport-sandbox",
    choices: [{ index: 0, delta, logprobs: null, finish_reason: finishReason }],
    ...extra,
  });
  const includeUsage = request.stream_options?.include_usage === true;
  async function* events(): AsyncGenerator<SseEvent> {
    yield { data: chunk({ role: "assistant", content: "" }, null) };
    for await (const token of streamTokens(reply, tokenDelay())) yield { data: chunk({ content: token }, null) };
    yield { data: chunk({}, finish) };
    if (includeUsage) yield { data: { ...chunk({}, null), choices: [], usage } };
    yield { data: "[DONE]" };
  }
  return streamResponse(sseChunks(events()));
});

// POST /api/v1/messages: Anthropic's Messages shapes.
export const createMessage = defineHandler(handlerRoute("create_message"))(async ({ body: request }) => {
  const prompt = contentText(lastOf(request.messages, "user")?.content);
  const reply = sandboxReply(request.model, prompt, request.max_tokens);
  const id = randomId("msg_");
  const stopReason = reply.truncated ? "max_tokens" : "end_turn";
  const message = (text: string, outputTokens: number, stop: string | null) => ({
    id,
    type: "message",
    role: "assistant",
    model: request.model,
    content: text === "" && stop === null ? [] : [{ type: "text", text }],
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: reply.promptTokens, output_tokens: outputTokens },
  });
  if (!request.stream) return message(reply.text, reply.completionTokens, stopReason);
  async function* events(): AsyncGenerator<SseEvent> {
    yield { event: "message_start", data: { type: "message_start", message: message("", 1, null) } };
    yield {
      event: "content_block_start",
      data: { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    };
    for await (const token of streamTokens(reply, tokenDelay())) {
      yield {
        event: "content_block_delta",
        data: { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: token } },
      };
    }
    yield { event: "content_block_stop", data: { type: "content_block_stop", index: 0 } };
    yield {
      event: "message_delta",
      data: {
        type: "message_delta",
        delta: { stop_reason: stopReason, stop_sequence: null },
        usage: { output_tokens: reply.completionTokens },
      },
    };
    yield { event: "message_stop", data: { type: "message_stop" } };
  }
  return streamResponse(sseChunks(events()));
});

/** The model id: the registry's path pattern already split "[model]:action" at the last colon. */
function textModel(model: string): string {
  const parsed = textModelSchema.safeParse(model);
  if (!parsed.success)
    throw new ApiError("invalid_request", { message: parsed.error.issues[0]?.message, param: "model" });
  return parsed.data;
}

function geminiResponse(model: string, reply: SandboxReply, text: string, done: boolean, outputTokens: number) {
  return {
    candidates: [
      {
        content: { role: "model", parts: [{ text }] },
        ...(done ? { finishReason: reply.truncated ? "MAX_TOKENS" : "STOP" } : {}),
        index: 0,
      },
    ],
    usageMetadata: {
      promptTokenCount: reply.promptTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: reply.promptTokens + outputTokens,
    },
    modelVersion: model,
    responseId: randomId(""),
  };
}

function geminiReply(model: string, request: GenerateRequest): SandboxReply {
  const last = lastOf(request.contents, "user");
  const prompt = (last?.parts ?? []).map((part) => part.text ?? "").join("");
  return sandboxReply(model, prompt, request.generationConfig?.maxOutputTokens);
}

// POST /api/v1beta/models/[model]:generateContent: Gemini's shapes.
export const generateContent = defineHandler(handlerRoute("generate_content"))(async ({ body, params }) => {
  const model = textModel(params.model);
  const reply = geminiReply(model, body);
  return geminiResponse(model, reply, reply.text, true, reply.completionTokens);
});

// POST /api/v1beta/models/[model]:streamGenerateContent: server-sent events
// with ?alt=sse (what Google's client libraries ask for), otherwise a JSON
// array streamed one element at a time.
export const streamGenerateContent = defineHandler(handlerRoute("stream_generate_content"))(async ({
  body,
  params,
  request,
}) => {
  const model = textModel(params.model);
  const reply = geminiReply(model, body);
  async function* pieces() {
    let sent = 0;
    for await (const token of streamTokens(reply, tokenDelay())) {
      sent++;
      yield geminiResponse(model, reply, token, sent === reply.tokens.length, sent);
    }
  }
  if (new URL(request.url).searchParams.get("alt") === "sse") {
    async function* events(): AsyncGenerator<SseEvent> {
      for await (const piece of pieces()) yield { data: piece };
    }
    return streamResponse(sseChunks(events()));
  }
  const encoder = new TextEncoder();
  async function* jsonArray(): AsyncGenerator<Uint8Array> {
    let first = true;
    yield encoder.encode("[");
    for await (const piece of pieces()) {
      yield encoder.encode(`${first ? "" : ",\r\n"}${JSON.stringify(piece)}`);
      first = false;
    }
    yield encoder.encode("]");
  }
  return streamResponse(jsonArray(), { ...STREAM_HEADERS, "Content-Type": "application/json; charset=utf-8" });
});
