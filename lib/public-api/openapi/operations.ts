// One registry route as one OpenAPI operation: parameters, request body and
// every answer it can give.
import type { z } from "zod";
import { IDEMPOTENCY_KEY_PATTERN } from "../generation-schemas";
import { pathParamDescriptions, pathParamNames, routeErrors, versionOf, type PublicRoute } from "../routes";
import { errorResponses } from "./errors";
import { jsonSchema } from "./json-schema";
import { operationSecurity } from "./security";
import { successResponses } from "./success";
import type { JsonSchema, Operation, Parameter, RequestBody } from "./types";

const QUERY_DESCRIPTIONS: Record<string, string> = {
  limit: "How many items to return, from 1 to 100.",
  after: "A cursor: the id of the last item already seen; the page starts after it.",
};

function pathParameters(route: PublicRoute): Parameter[] {
  return pathParamNames(route.path).map((name) => ({
    name,
    in: "path",
    required: true,
    description: pathParamDescriptions[name],
    schema: { type: "string" },
  }));
}

/** The registry's query schema, one parameter per property. */
function queryParameters(route: PublicRoute): Parameter[] {
  const parameters: Parameter[] = [];
  if (route.query) {
    const schema = jsonSchema(route.query, "input");
    const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((schema.required ?? []) as string[]);
    for (const [name, property] of Object.entries(properties)) {
      parameters.push({
        name,
        in: "query",
        required: required.has(name),
        description: QUERY_DESCRIPTIONS[name],
        schema: property,
      });
    }
  }
  // Not in the registry (the gate does not validate it): the handler reads it to choose the stream's format.
  if (route.streams) {
    parameters.push({
      name: "alt",
      in: "query",
      required: false,
      description: "`sse` for server-sent events (what Google's libraries ask for); otherwise a streamed JSON array.",
      schema: { type: "string", enum: ["sse"] },
    });
  }
  return parameters;
}

/** A route that can answer idempotency_key_mismatch is one that honours an Idempotency-Key. */
function headerParameters(route: PublicRoute): Parameter[] {
  if (!routeErrors(route).includes("idempotency_key_mismatch")) return [];
  return [
    {
      name: "Idempotency-Key",
      in: "header",
      required: false,
      description:
        "A retry with the same key and body (per API key, for 24 hours) answers the first generation instead of creating another; a different body under the same key is refused with 422. It is stored, so one that holds an API key is refused with 400 api_key_misplaced.",
      schema: { type: "string", pattern: IDEMPOTENCY_KEY_PATTERN.source },
    },
  ];
}

// contentMediaType is 3.1's way to say "bytes"; format: binary is for tools still on 3.0's.
const BYTES = { type: "string", format: "binary", contentMediaType: "application/octet-stream" };

/** The multipart form from the registry's schema: the file as bytes, every other field as JSON Schema. */
function formSchema(form: z.ZodObject<Record<string, z.ZodType>>): JsonSchema {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  for (const [name, field] of Object.entries(form.shape)) {
    const description = field.description;
    properties[name] =
      name === "file" ? { ...BYTES, ...(description ? { description } : {}) } : jsonSchema(field, "input");
    if (!field.safeParse(undefined).success) required.push(name);
  }
  return { type: "object", required, properties };
}

function requestBody(route: PublicRoute): RequestBody | undefined {
  if (route.body === "multipart" && route.form) {
    return {
      required: true,
      description: "At most 20 MiB by default.",
      content: { "multipart/form-data": { schema: formSchema(route.form) } },
    };
  }
  if (route.body === "json" && route.request) {
    return {
      required: true,
      description: "At most 1 MiB by default.",
      content: { "application/json": { schema: jsonSchema(route.request, "input") } },
    };
  }
  return undefined;
}

export function operation(route: PublicRoute): Operation {
  const parameters = [...pathParameters(route), ...queryParameters(route), ...headerParameters(route)];
  const body = requestBody(route);
  return {
    operationId: route.name,
    summary: route.summary,
    tags: [versionOf(route)],
    security: operationSecurity(route),
    "x-keyport-scope": route.scope,
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body ? { requestBody: body } : {}),
    responses: { ...successResponses(route), ...errorResponses(route) },
  };
}
