// What each route's examples send. Typed by route name, so a new route in the
// registry does not compile until it has an example here. Ids that only exist
// after another call (a generation's id) come from environment variables the
// examples name, never from a made-up literal that would answer 404.
import type { RouteName } from "../public-api/routes";

export interface ExampleInput {
  /** Path parameters: a literal, or `{ env: "NAME" }` for a value the reader exports first. */
  params?: Record<string, string | { env: string }>;
  query?: Record<string, string>;
  /** A JSON body. */
  body?: Record<string, unknown>;
  /** A multipart upload of a local file. */
  file?: { field: string; path: string; type: string; extra?: Record<string, string> };
  /** Sent as Idempotency-Key. */
  idempotencyKey?: string;
  /** The response is a stream: curl needs -N, and the code reads it as it arrives. */
  stream?: boolean;
}

export const TEXT_MODEL = "keyport-sandbox-mini";

const chat = {
  model: TEXT_MODEL,
  messages: [{ role: "user", content: "Say hello to the Keyport docs." }],
};

const gemini = { contents: [{ role: "user", parts: [{ text: "Say hello to the Keyport docs." }] }] };

export const exampleInputs: Record<RouteName, ExampleInput> = {
  list_media_models: { query: { limit: "2" } },
  list_apps: { query: { limit: "2" } },
  get_app: { params: { app: "poster-studio" } },
  list_models: {},
  create_chat_completion: { body: chat },
  create_message: { body: { ...chat, max_tokens: 256 } },
  generate_content: { params: { model: TEXT_MODEL }, body: gemini },
  stream_generate_content: { params: { model: TEXT_MODEL }, query: { alt: "sse" }, body: gemini, stream: true },
  upload_file: { file: { field: "file", path: "notes.txt", type: "text/plain", extra: { purpose: "reference" } } },
  create_generation: { body: { model: "aurora-image-2", prompt: "A lighthouse at dawn, flat poster style" } },
  get_generation: { params: { id: { env: "GENERATION_ID" } } },
  create_app_generation: { params: { app: "poster-studio" }, body: { prompt: "Grand opening, Saturday 10am" } },
  get_app_generation: { params: { app: "poster-studio", id: { env: "GENERATION_ID" } } },
};

/** The streaming variants the model routes also document ("stream": true in the body). */
export const streamVariants: Partial<Record<RouteName, ExampleInput>> = {
  create_chat_completion: { body: { ...chat, stream: true }, stream: true },
  create_message: { body: { ...chat, max_tokens: 256, stream: true }, stream: true },
};
