// The official client libraries, pointed at Keyport: only the base URL and
// the key change (and, for Google's library, the API version). The Node
// snippets are run by the e2e suite against the versions in package.json; the
// Python ones show the same settings.
import type { RouteName } from "../public-api/routes";
import { TEXT_MODEL } from "./example-inputs";
import { KEY_ENV } from "./examples";

export interface ClientSnippet {
  library: string;
  language: "node" | "python";
  code: string;
}

const PROMPT = "Say hello to the Keyport docs.";

function openai(baseUrl: string): ClientSnippet[] {
  return [
    {
      library: "openai (npm)",
      language: "node",
      code: `import OpenAI from "openai";

const client = new OpenAI({
  apiKey: process.env.${KEY_ENV}, // sent as Authorization: Bearer
  baseURL: "${baseUrl}/api/v1",
});
const completion = await client.chat.completions.create({
  model: "${TEXT_MODEL}",
  messages: [{ role: "user", content: "${PROMPT}" }],
});
console.log(completion.choices[0].message.content);`,
    },
    {
      library: "openai (PyPI)",
      language: "python",
      code: `import os

from openai import OpenAI

client = OpenAI(
    api_key=os.environ["${KEY_ENV}"],  # sent as Authorization: Bearer
    base_url="${baseUrl}/api/v1",
)
completion = client.chat.completions.create(
    model="${TEXT_MODEL}",
    messages=[{"role": "user", "content": "${PROMPT}"}],
)
print(completion.choices[0].message.content)`,
    },
  ];
}

function anthropic(baseUrl: string): ClientSnippet[] {
  return [
    {
      library: "@anthropic-ai/sdk (npm)",
      language: "node",
      code: `import Anthropic from "@anthropic-ai/sdk";

const client = new Anthropic({
  apiKey: process.env.${KEY_ENV}, // sent as X-Api-Key
  baseURL: "${baseUrl}/api",
});
const message = await client.messages.create({
  model: "${TEXT_MODEL}",
  max_tokens: 256,
  messages: [{ role: "user", content: "${PROMPT}" }],
});
console.log(message.content[0].text);`,
    },
    {
      library: "anthropic (PyPI)",
      language: "python",
      code: `import os

from anthropic import Anthropic

client = Anthropic(
    api_key=os.environ["${KEY_ENV}"],  # sent as X-Api-Key
    base_url="${baseUrl}/api",
)
message = client.messages.create(
    model="${TEXT_MODEL}",
    max_tokens=256,
    messages=[{"role": "user", "content": "${PROMPT}"}],
)
print(message.content[0].text)`,
    },
  ];
}

const GOOGLE_CLIENT_NODE = (baseUrl: string) => `import { GoogleGenAI } from "@google/genai";

// Google's own key header is not one of Keyport's: send the key as a Bearer token.
// Keyport serves the Gemini format under v1beta (from @google/genai 3, the default is v1).
const client = new GoogleGenAI({
  apiKey: "unused",
  httpOptions: {
    baseUrl: "${baseUrl}/api",
    apiVersion: "v1beta",
    headers: { Authorization: \`Bearer \${process.env.${KEY_ENV}}\` },
  },
});`;

const GOOGLE_CLIENT_PYTHON = (baseUrl: string) => `import os

from google import genai
from google.genai import types

# Google's own key header is not one of Keyport's: send the key as a Bearer token.
# Keyport serves the Gemini format under v1beta: set the API version explicitly.
client = genai.Client(
    api_key="unused",
    http_options=types.HttpOptions(
        base_url="${baseUrl}/api",
        api_version="v1beta",
        headers={"Authorization": f"Bearer {os.environ['${KEY_ENV}']}"},
    ),
)`;

function googleStream(baseUrl: string): ClientSnippet[] {
  return [
    {
      library: "@google/genai (npm)",
      language: "node",
      code: `${GOOGLE_CLIENT_NODE(baseUrl)}
const stream = await client.models.generateContentStream({
  model: "${TEXT_MODEL}",
  contents: "${PROMPT}",
});
for await (const chunk of stream) process.stdout.write(chunk.text ?? "");`,
    },
    {
      library: "google-genai (PyPI)",
      language: "python",
      code: `${GOOGLE_CLIENT_PYTHON(baseUrl)}
for chunk in client.models.generate_content_stream(model="${TEXT_MODEL}", contents="${PROMPT}"):
    print(chunk.text, end="")`,
    },
  ];
}

function google(baseUrl: string): ClientSnippet[] {
  return [
    {
      library: "@google/genai (npm)",
      language: "node",
      code: `${GOOGLE_CLIENT_NODE(baseUrl)}
const response = await client.models.generateContent({
  model: "${TEXT_MODEL}",
  contents: "${PROMPT}",
});
console.log(response.text);`,
    },
    {
      library: "google-genai (PyPI)",
      language: "python",
      code: `${GOOGLE_CLIENT_PYTHON(baseUrl)}
response = client.models.generate_content(model="${TEXT_MODEL}", contents="${PROMPT}")
print(response.text)`,
    },
  ];
}

/** The client libraries each model route works with. */
export function clientSnippets(route: RouteName, baseUrl: string): ClientSnippet[] {
  switch (route) {
    case "create_chat_completion":
      return openai(baseUrl);
    case "create_message":
      return anthropic(baseUrl);
    case "generate_content":
      return google(baseUrl);
    case "stream_generate_content":
      return googleStream(baseUrl);
    default:
      return [];
  }
}
