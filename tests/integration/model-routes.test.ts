/* eslint-disable @typescript-eslint/no-explicit-any -- payloads of three wire formats, asserted field by field */
import { beforeAll, describe, expect, it } from "vitest";
import { producedTokenCount } from "@/lib/sandbox/model";
import { callApi, makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";

let keys: KeyFixtures;
beforeAll(async () => {
  keys = await makeKeyFixtures();
});

const route = (name: string) => publicRoutes.find((r) => r.name === name)!;
const post = (name: string, body: unknown, path?: string, headers: Record<string, string> = {}) =>
  callApi(route(name), {
    headers: { Authorization: `Bearer ${keys.valid}`, "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
    path,
  });

/** Server-sent events as { event, data } pairs, in order. */
function parseSse(text: string) {
  return text
    .trim()
    .split("\n\n")
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1];
      const data = /^data: (.*)$/m.exec(block)?.[1] ?? "";
      return { event, data: data === "[DONE]" ? data : (JSON.parse(data) as Record<string, any>) };
    });
}

const chat = { model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Say hello" }] };
const messages = { model: "keyport-sandbox-mini", max_tokens: 200, messages: [{ role: "user", content: "Say hello" }] };
const gemini = { contents: [{ role: "user", parts: [{ text: "Say hello" }] }] };
const GEMINI = "/api/v1beta/models/keyport-sandbox-2.5-flash";

describe("POST /api/v1/chat/completions", () => {
  it("answers a chat.completion, the same for the same prompt", async () => {
    const { status, json } = await post("create_chat_completion", chat);
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^chatcmpl-/),
      object: "chat.completion",
      created: expect.any(Number),
      model: "keyport-sandbox-mini",
      choices: [
        {
          index: 0,
          message: { role: "assistant", content: expect.stringContaining("Keyport sandbox") },
          finish_reason: "stop",
        },
      ],
      usage: { prompt_tokens: 2, completion_tokens: expect.any(Number), total_tokens: expect.any(Number) },
    });
    expect(json.usage.total_tokens).toBe(json.usage.prompt_tokens + json.usage.completion_tokens);
    expect((await post("create_chat_completion", chat)).json.choices[0].message.content).toBe(
      json.choices[0].message.content,
    );
  });

  it("streams chat.completion.chunk events ending with [DONE]", async () => {
    const { status, headers, text } = await post("create_chat_completion", {
      ...chat,
      stream: true,
      stream_options: { include_usage: true },
    });
    expect(status).toBe(200);
    expect(headers.get("content-type")).toMatch(/^text\/event-stream/);
    expect(headers.get("cache-control")).toContain("no-transform");
    expect(headers.get("x-accel-buffering")).toBe("no");
    const events = parseSse(text);
    expect(events.at(-1)?.data).toBe("[DONE]");
    const chunks = events.slice(0, -1).map((e) => e.data as Record<string, any>);
    expect(chunks.every((c) => c.object === "chat.completion.chunk")).toBe(true);
    expect(chunks[0]!.choices[0].delta).toEqual({ role: "assistant", content: "" });
    const content = chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("");
    expect(content).toBe((await post("create_chat_completion", chat)).json.choices[0].message.content);
    expect(chunks.at(-2)!.choices[0].finish_reason).toBe("stop");
    expect(chunks.at(-1)!.usage.total_tokens).toBeGreaterThan(0);
  });

  it.each([
    [{ messages: chat.messages }, "model"],
    [{ ...chat, model: "gpt-unknown" }, "model"],
    [{ model: chat.model }, "messages"],
    [{ ...chat, messages: [] }, "messages"],
  ])("refuses %j naming %s", async (body, param) => {
    const { status, json } = await post("create_chat_completion", body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: "invalid_request", param });
  });

  it("refuses malformed JSON and another content type", async () => {
    expect((await post("create_chat_completion", "{oops")).json.error.code).toBe("invalid_request");
    const wrongType = await post("create_chat_completion", JSON.stringify(chat), undefined, {
      "content-type": "text/plain",
    });
    expect(wrongType.status).toBe(415);
  });
});

describe("POST /api/v1/messages", () => {
  it("answers a message with content blocks, stop_reason and usage", async () => {
    const { status, json } = await post("create_message", { ...messages, system: "Be brief." });
    expect(status).toBe(200);
    expect(json).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      type: "message",
      role: "assistant",
      model: "keyport-sandbox-mini",
      content: [{ type: "text", text: expect.stringContaining("Keyport sandbox") }],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 2, output_tokens: expect.any(Number) },
    });
    const short = await post("create_message", { ...messages, max_tokens: 3 });
    expect(short.json).toMatchObject({ stop_reason: "max_tokens", usage: { output_tokens: 3 } });
  });

  it("streams the Messages event sequence in order", async () => {
    const { text } = await post("create_message", { ...messages, stream: true });
    const events = parseSse(text);
    const names = events.map((e) => e.event);
    expect(names[0]).toBe("message_start");
    expect(names[1]).toBe("content_block_start");
    expect(names.slice(2, -3).every((n) => n === "content_block_delta")).toBe(true);
    expect(names.slice(-3)).toEqual(["content_block_stop", "message_delta", "message_stop"]);
    for (const e of events) expect((e.data as Record<string, unknown>).type).toBe(e.event);
    const text2 = events
      .filter((e) => e.event === "content_block_delta")
      .map((e) => (e.data as any).delta.text)
      .join("");
    expect(text2).toBe((await post("create_message", messages)).json.content[0].text);
    expect((events.at(-2)!.data as any).delta.stop_reason).toBe("end_turn");
  });

  it.each([
    [{ model: messages.model, messages: messages.messages }, "max_tokens"],
    [{ ...messages, model: undefined }, "model"],
    [{ model: messages.model, max_tokens: 10 }, "messages"],
  ])("refuses %j naming %s", async (body, param) => {
    const { status, json } = await post("create_message", body);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: "invalid_request", param });
  });
});

describe("POST /api/v1beta/models/[model]:generateContent and :streamGenerateContent", () => {
  it("answers candidates with finishReason and usageMetadata", async () => {
    const { status, json } = await post(
      "generate_content",
      { ...gemini, systemInstruction: { parts: [{ text: "Be brief." }] } },
      `${GEMINI}:generateContent`,
    );
    expect(status).toBe(200);
    expect(json).toMatchObject({
      candidates: [
        {
          content: { role: "model", parts: [{ text: expect.stringContaining("Keyport sandbox") }] },
          finishReason: "STOP",
          index: 0,
        },
      ],
      usageMetadata: {
        promptTokenCount: 2,
        candidatesTokenCount: expect.any(Number),
        totalTokenCount: expect.any(Number),
      },
    });
  });

  it("streams server-sent events with alt=sse, and a JSON array without it", async () => {
    const full = (await post("generate_content", gemini, `${GEMINI}:generateContent`)).json.candidates[0].content
      .parts[0].text;
    const sse = await post("stream_generate_content", gemini, `${GEMINI}:streamGenerateContent?alt=sse`);
    expect(sse.headers.get("content-type")).toMatch(/^text\/event-stream/);
    const pieces = parseSse(sse.text).map((e) => e.data as any);
    expect(pieces.map((p) => p.candidates[0].content.parts[0].text).join("")).toBe(full);
    expect(pieces.at(-1).candidates[0].finishReason).toBe("STOP");
    expect(pieces.slice(0, -1).every((p) => p.candidates[0].finishReason === undefined)).toBe(true);

    const array = await post("stream_generate_content", gemini, `${GEMINI}:streamGenerateContent`);
    expect(array.headers.get("content-type")).toMatch(/^application\/json/);
    const parsed = JSON.parse(array.text) as any[];
    expect(parsed.map((p) => p.candidates[0].content.parts[0].text).join("")).toBe(full);
  });

  it.each([
    [{}, "contents"],
    [{ contents: [] }, "contents"],
  ])("refuses %j naming %s", async (body, param) => {
    const { status, json } = await post("generate_content", body, `${GEMINI}:generateContent`);
    expect(status).toBe(400);
    expect(json.error).toMatchObject({ code: "invalid_request", param });
  });

  it("refuses an unknown model in the path", async () => {
    const { json } = await post("generate_content", gemini, "/api/v1beta/models/gemini-unknown:generateContent");
    expect(json.error).toMatchObject({ code: "invalid_request", param: "model" });
  });
});

describe("streaming", () => {
  it("sends the first event before the last token is produced, and stops producing when the client leaves", async () => {
    const { handlePublicRequest } = await import("@/lib/public-api/app-gate");
    const request = () =>
      new Request("http://localhost/api/v1/chat/completions", {
        method: "POST",
        headers: { Authorization: `Bearer ${keys.valid}`, "content-type": "application/json" },
        body: JSON.stringify({ ...chat, stream: true }),
      });
    const total = (await post("create_chat_completion", chat)).json.usage.completion_tokens as number;
    expect(total).toBeGreaterThan(10);

    const before = producedTokenCount();
    const response = await handlePublicRequest(request());
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('"role":"assistant"');
    expect(producedTokenCount() - before).toBeLessThan(total);
    await reader.read(); // one token
    await reader.cancel(); // the client goes away
    const atCancel = producedTokenCount() - before;
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(producedTokenCount() - before).toBe(atCancel);
    expect(atCancel).toBeLessThan(total);
  });
});
