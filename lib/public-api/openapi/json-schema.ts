import { z } from "zod";
import type { JsonSchema } from "./types";

/**
 * A zod schema as an OpenAPI 3.1 Schema Object: JSON Schema 2020-12, which
 * 3.1 speaks natively. "input" describes what a client sends (defaults are
 * optional, coerced numbers are numbers), "output" what the server answers.
 * The $schema marker goes: the document's dialect already says it.
 */
export function jsonSchema(schema: z.ZodType, io: "input" | "output"): JsonSchema {
  // unrepresentable stays "throw": a transform with no JSON Schema form fails
  // the unit test instead of turning silently into "anything". Refinements
  // (the model ids) are dropped; the type they refine still shows.
  const result: JsonSchema = { ...z.toJSONSchema(schema, { io, target: "draft-2020-12" }) };
  delete result.$schema;
  return result;
}
