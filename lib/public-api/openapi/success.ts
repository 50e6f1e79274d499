// Each route's successful answer. Routes with a response schema in the
// registry document it directly; the others are listed here by name, and the
// type makes a new route without a schema fail to compile until it is added.
import type { z } from "zod";
import type { publicRoutes, PublicRoute, RouteName } from "../routes";
import { headerRefs, successHeaders } from "./headers";
import { jsonSchema } from "./json-schema";
import type { MediaType, ResponseObject } from "./types";

type WithResponseSchema = Extract<(typeof publicRoutes)[number], { response: z.ZodType }>["name"];

interface Success {
  status: "200" | "201";
  description: string;
  content: Record<string, MediaType>;
  replayable?: boolean;
}

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: MediaType["schema"]) => ({ "application/json": { schema } });
const eventStream = (description: string) => ({ "text/event-stream": { schema: { type: "string", description } } });

const generation = (status: "200" | "201", description: string): Success => ({
  status,
  description,
  content: json(ref("Generation")),
  replayable: status === "201",
});

const handWritten: Record<Exclude<RouteName, WithResponseSchema>, Success> = {
  create_chat_completion: {
    status: "200",
    description: "The completion, in OpenAI's Chat Completions format; a stream of events with `stream: true`.",
    content: {
      ...json(ref("ChatCompletion")),
      ...eventStream("`data:` lines holding chat.completion.chunk objects, then `data: [DONE]`."),
    },
  },
  create_message: {
    status: "200",
    description: "The message, in Anthropic's Messages format; a stream of events with `stream: true`.",
    content: {
      ...json(ref("Message")),
      ...eventStream("Named events: message_start, content_block_start, content_block_delta…, message_stop."),
    },
  },
  generate_content: {
    status: "200",
    description: "The reply, in Gemini's generateContent format.",
    content: json(ref("GenerateContentResponse")),
  },
  stream_generate_content: {
    status: "200",
    description: "With `?alt=sse`, server-sent events; otherwise a JSON array streamed one element at a time.",
    content: {
      ...eventStream("`data:` lines, each holding a GenerateContentResponse."),
      ...json({ type: "array", items: ref("GenerateContentResponse") }),
    },
  },
  // The handler returns the file object and the gate sends it with 200, not 201.
  upload_file: { status: "200", description: "The stored file.", content: json(ref("File")) },
  create_generation: generation("201", "The generation, queued (or the earlier one, replayed)."),
  create_app_generation: generation("201", "The generation, queued (or the earlier one, replayed)."),
  get_generation: generation("200", "The generation."),
  get_app_generation: generation("200", "The generation."),
};

export function successResponses(route: PublicRoute): Record<string, ResponseObject> {
  const success: Success | undefined = route.response
    ? { status: "200", description: "Success.", content: json(jsonSchema(route.response, "output")) }
    : handWritten[route.name as keyof typeof handWritten];
  if (!success) throw new Error(`No documented response for ${route.name}.`);
  const headers = success.replayable ? { ...successHeaders(), ...headerRefs("Idempotent-Replayed") } : successHeaders();
  return { [success.status]: { description: success.description, headers, content: success.content } };
}
