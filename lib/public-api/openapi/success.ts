// Each route's successful answer, as the registry declares it (route.success
// in lib/public-api/routes.ts). A body shape that is one of the document's
// components is referenced by name rather than written out again.
import type { z } from "zod";
import type { PublicRoute } from "../routes";
import { headerRefs, successHeaders } from "./headers";
import { jsonSchema } from "./json-schema";
import {
  chatCompletionSchema,
  fileSchema,
  generateContentResponseSchema,
  generationSchema,
  messageSchema,
} from "./response-schemas";
import type { MediaType, ResponseObject } from "./types";

/** The response shapes the document holds once, under components.schemas, by name. */
export const responseComponents = new Map<z.ZodType, string>([
  [generationSchema, "Generation"],
  [fileSchema, "File"],
  [chatCompletionSchema, "ChatCompletion"],
  [messageSchema, "Message"],
  [generateContentResponseSchema, "GenerateContentResponse"],
]);

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });

/** A body's JSON Schema: a reference where it is a component (or an array of one), else written out. */
function bodySchema(schema: z.ZodType): MediaType["schema"] {
  const name = responseComponents.get(schema);
  if (name) return ref(name);
  const element = (schema as { element?: z.ZodType }).element;
  const elementName = element && responseComponents.get(element);
  if (elementName) return { type: "array", items: ref(elementName) };
  return jsonSchema(schema, "output");
}

export function successResponses(route: PublicRoute): Record<string, ResponseObject> {
  const { status, description, eventStream, replayable } = route.success;
  const json = route.success.json ?? route.response;
  if (!json && !eventStream) throw new Error(`No documented response body for ${route.name}.`);
  const content: Record<string, MediaType> = {};
  if (json) content["application/json"] = { schema: bodySchema(json) };
  if (eventStream) content["text/event-stream"] = { schema: { type: "string", description: eventStream } };
  const headers = replayable ? { ...successHeaders(), ...headerRefs("Idempotent-Replayed") } : successHeaders();
  return { [String(status)]: { description, headers, content } };
}
