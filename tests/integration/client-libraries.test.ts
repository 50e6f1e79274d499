// The official client libraries, configured only with Keyport's base URL and
// a key, against the public API on a real port.
import Anthropic from "@anthropic-ai/sdk";
import { GoogleGenAI } from "@google/genai";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiServer } from "../helpers/api-server";
import { makeKeyFixtures, type KeyFixtures } from "../helpers/api-fixtures";

let keys: KeyFixtures;
let server: Awaited<ReturnType<typeof startApiServer>>;

beforeAll(async () => {
  keys = await makeKeyFixtures();
  server = await startApiServer();
});
afterAll(() => server.close());

const MODEL = "keyport-sandbox-mini";

describe("openai", () => {
  const client = (apiKey: string) => new OpenAI({ apiKey, baseURL: `${server.baseUrl}/api/v1`, maxRetries: 0 });

  it("creates a chat completion and streams one", async () => {
    const completion = await client(keys.valid).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Hi there" }],
    });
    expect(completion.choices[0]?.message.content).toContain("Keyport sandbox");
    let streamed = "";
    const stream = await client(keys.valid).chat.completions.create({
      model: MODEL,
      messages: [{ role: "user", content: "Hi there" }],
      stream: true,
    });
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? "";
    expect(streamed).toBe(completion.choices[0]?.message.content);
  });

  it("lists models", async () => {
    const models = await client(keys.valid).models.list();
    expect(models.data.map((m) => m.id)).toContain(MODEL);
  });

  it("surfaces a bad key as its AuthenticationError", async () => {
    await expect(
      client(keys.unknown).chat.completions.create({ model: MODEL, messages: [{ role: "user", content: "x" }] }),
    ).rejects.toBeInstanceOf(OpenAI.AuthenticationError);
  });
});

describe("@anthropic-ai/sdk (sends X-Api-Key)", () => {
  const client = (apiKey: string) => new Anthropic({ apiKey, baseURL: `${server.baseUrl}/api`, maxRetries: 0 });

  it("creates a message and streams one", async () => {
    const message = await client(keys.valid).messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: "Hi there" }],
    });
    const text = message.content[0]?.type === "text" ? message.content[0].text : "";
    expect(text).toContain("Keyport sandbox");
    expect(message.stop_reason).toBe("end_turn");
    const stream = client(keys.valid).messages.stream({
      model: MODEL,
      max_tokens: 100,
      messages: [{ role: "user", content: "Hi there" }],
    });
    let streamed = "";
    stream.on("text", (delta) => (streamed += delta));
    const final = await stream.finalMessage();
    expect(streamed).toBe(text);
    expect(final.stop_reason).toBe("end_turn");
  });

  it("surfaces a bad key as its AuthenticationError", async () => {
    await expect(
      client(keys.revoked).messages.create({
        model: MODEL,
        max_tokens: 10,
        messages: [{ role: "user", content: "x" }],
      }),
    ).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
  });
});

describe("@google/genai (with an Authorization header in its HTTP options)", () => {
  const client = (key: string) =>
    new GoogleGenAI({
      apiKey: "not-used-by-keyport",
      httpOptions: { baseUrl: `${server.baseUrl}/api`, headers: { Authorization: `Bearer ${key}` } },
    });

  it("generates content and streams it", async () => {
    const response = await client(keys.valid).models.generateContent({
      model: "keyport-sandbox-2.5-flash",
      contents: "Hi there",
    });
    expect(response.text).toContain("Keyport sandbox");
    let streamed = "";
    for await (const chunk of await client(keys.valid).models.generateContentStream({
      model: "keyport-sandbox-2.5-flash",
      contents: "Hi there",
    })) {
      streamed += chunk.text ?? "";
    }
    expect(streamed).toBe(response.text);
  });

  it("surfaces a bad key as a 401 error", async () => {
    await expect(
      client(keys.expired).models.generateContent({ model: "keyport-sandbox-2.5-flash", contents: "x" }),
    ).rejects.toMatchObject({
      status: 401,
    });
  });
});
