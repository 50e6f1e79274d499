// The fields of a route's query, JSON body and upload form, for the tables on
// its page: read from the same zod schemas the requests are validated with.
import { z } from "zod";
import { jsonSchema } from "../public-api/openapi/json-schema";
import type { PublicRoute } from "../public-api/routes";

export interface Field {
  name: string;
  type: string;
  required: boolean;
  notes: string;
}

type FieldSchema = {
  type?: string | string[];
  anyOf?: FieldSchema[];
  items?: FieldSchema;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  description?: string;
  properties?: Record<string, FieldSchema>;
  required?: string[];
};

function typeOf(schema: FieldSchema): string {
  if (schema.format === "binary") return "file";
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  if (schema.enum) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  if (schema.anyOf) return [...new Set(schema.anyOf.map(typeOf))].join(" | ");
  if (schema.type === "array") return `array of ${schema.items ? typeOf(schema.items) : "any"}`;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return schema.type ?? "any";
}

function notesOf(schema: FieldSchema): string {
  const notes: string[] = schema.description ? [schema.description] : [];
  if (schema.default !== undefined) notes.push(`default ${JSON.stringify(schema.default)}`);
  const maximum = schema.maximum === Number.MAX_SAFE_INTEGER ? undefined : schema.maximum;
  if (schema.minimum !== undefined && maximum !== undefined) notes.push(`${schema.minimum} to ${maximum}`);
  else if (schema.minimum !== undefined) notes.push(`at least ${schema.minimum}`);
  if (schema.minItems) notes.push(`at least ${schema.minItems} item${schema.minItems === 1 ? "" : "s"}`);
  if (schema.maxLength) notes.push(`at most ${schema.maxLength} characters`);
  if (schema.pattern) notes.push(`matches ${schema.pattern}`);
  return notes.join("; ");
}

function fieldsOf(json: FieldSchema): Field[] {
  return Object.entries(json.properties ?? {}).map(([name, property]) => ({
    name,
    type: typeOf(property),
    required: json.required?.includes(name) ?? false,
    notes: notesOf(property),
  }));
}

// The JSON Schema of a zod object is an object with properties: these casts only narrow it to the keys read here.
const schemaFields = (schema: z.ZodType) => fieldsOf(jsonSchema(schema, "input") as FieldSchema);

export function queryFields(route: PublicRoute): Field[] {
  return route.query ? schemaFields(route.query) : [];
}

export function bodyFields(route: PublicRoute): Field[] {
  return route.request ? schemaFields(route.request) : [];
}

/** A received file has no JSON Schema of its own; it is written as OpenAPI writes a file (a binary string). */
export function formFields(route: PublicRoute): Field[] {
  if (!route.form) return [];
  const json = z.toJSONSchema(route.form, {
    io: "input",
    unrepresentable: "any",
    override: ({ zodSchema, jsonSchema }) => {
      if (zodSchema instanceof z.ZodCustom) Object.assign(jsonSchema, { type: "string", format: "binary" });
    },
  });
  return fieldsOf(json as FieldSchema);
}
