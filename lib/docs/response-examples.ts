import "server-only";
import { toFileObject } from "../files/store";
import { toGenerationObject } from "../generations/objects";
import { toResponse } from "../http/text-reply";
import type { RouteHandler } from "../public-api/define-handler";
import { getApp, listApps, listMediaModels, listModels } from "../public-api/handlers/catalog-lists";
import { createChatCompletion, createMessage, generateContent } from "../public-api/handlers/models";
import type { PublicRoute, RouteName } from "../public-api/routes";
import { exampleInputs } from "./example-inputs";

// The response each route's page shows. Where the handler needs no database
// (the catalog and the sandbox models), the docs call the real handler at
// build time with the example's input, so the example is what the route
// answers. The rest are built with the same object mappers the handlers use;
// the e2e suite checks every example's fields against a live answer.

export interface ResponseExample {
  status: number;
  /** A JSON body, or the raw text of a stream. */
  body: unknown;
  contentType: string;
}

const EXAMPLE_TIME = new Date("2026-11-02T09:30:00Z");
const EXAMPLE_KEY = {
  id: "example",
  publicId: "key_example",
  teamId: "example",
  userId: "example",
  environment: "dev" as const,
};

/** The handler's answer to the example's input, validated and parsed as the gate's call would be. */
async function callHandler(route: PublicRoute, handler: RouteHandler): Promise<unknown> {
  const input = exampleInputs[route.name as RouteName];
  const answer = await handler.run({
    request: new Request("http://localhost/"),
    requestId: "req_example",
    key: EXAMPLE_KEY,
    params: Object.fromEntries(
      Object.entries(input.params ?? {}).flatMap(([name, value]) => (typeof value === "string" ? [[name, value]] : [])),
    ),
    query: input.query ?? {},
    body: input.body,
  });
  return toResponse(answer).json();
}

const generation = (app: string | null, model: string, prompt: string) =>
  toGenerationObject({
    id: "gen_3bWq8ZkP0aLm7RtY2xVc9NdE",
    status: "queued",
    model,
    app,
    prompt,
    inputFileId: null,
    output: null,
    error: null,
    createdAt: EXAMPLE_TIME,
    startedAt: null,
    completedAt: null,
  });

const succeeded = (app: string | null, model: string, prompt: string) => ({
  ...generation(app, model, prompt),
  status: "succeeded",
  output: {
    type: "image/svg+xml",
    url: "data:image/svg+xml;base64,PHN2ZyB4bWxucz0iaHR0cDovL3d3dy53My5vcmcvMjAwMC9zdmciLz4=",
  },
  started_at: Math.floor(EXAMPLE_TIME.getTime() / 1000) + 1,
  completed_at: Math.floor(EXAMPLE_TIME.getTime() / 1000) + 2,
});

async function geminiStream(route: PublicRoute): Promise<string> {
  // The stream's events are the non-streaming answer cut into pieces: each one
  // a GenerateContentResponse with the next piece of text.
  const whole = (await callHandler(route, generateContent)) as {
    candidates: [{ content: { parts: [{ text: string }] }; finishReason?: string }];
  };
  const text = whole.candidates[0].content.parts[0].text;
  const pieces = text.match(/\S+\s*/g)?.slice(0, 3) ?? [text];
  return pieces
    .map((piece, index) => {
      const last = index === pieces.length - 1;
      const candidate = { ...whole.candidates[0], content: { role: "model", parts: [{ text: piece }] } };
      if (!last) delete candidate.finishReason;
      return `data: ${JSON.stringify({ ...whole, candidates: [candidate] })}\n`;
    })
    .join("\n")
    .concat(`\n(… one event per piece of text; the last one has "finishReason")`);
}

const APP = "poster-studio";

export async function responseExample(route: PublicRoute): Promise<ResponseExample> {
  const json = (body: unknown, status = 200) => ({ status, body, contentType: "application/json" });
  switch (route.name as RouteName) {
    case "list_media_models":
      return json(await callHandler(route, listMediaModels));
    case "list_apps":
      return json(await callHandler(route, listApps));
    case "get_app":
      return json(await callHandler(route, getApp));
    case "list_models":
      return json(await callHandler(route, listModels));
    case "create_chat_completion":
      return json(await callHandler(route, createChatCompletion));
    case "create_message":
      return json(await callHandler(route, createMessage));
    case "generate_content":
      return json(await callHandler(route, generateContent));
    case "stream_generate_content":
      return { status: 200, body: await geminiStream(route), contentType: "text/event-stream" };
    case "upload_file":
      return json(
        toFileObject({
          id: "file_8Hc2LmQ4vN7pR1sT5wX9yZ0a",
          bytes: 23,
          filename: "notes.txt",
          contentType: "text/plain",
          purpose: "reference",
          createdAt: EXAMPLE_TIME,
        }),
      );
    case "create_generation":
      return json(generation(null, "aurora-image-2", "A lighthouse at dawn, flat poster style"), route.success.status);
    case "get_generation":
      return json(succeeded(null, "aurora-image-2", "A lighthouse at dawn, flat poster style"));
    case "create_app_generation":
      return json(generation(APP, "aurora-image-2", "Grand opening, Saturday 10am"), route.success.status);
    case "get_app_generation":
      return json(succeeded(APP, "aurora-image-2", "Grand opening, Saturday 10am"));
  }
}
