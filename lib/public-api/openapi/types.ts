// The few OpenAPI 3.1 shapes the document uses, typed just enough for the
// builder and the tests to agree on them. Type aliases rather than interfaces,
// so a document passes as a plain Record<string, unknown>.
import type { Scope } from "../../keys/scopes";

export type JsonSchema = Record<string, unknown>;

export type Reference = { $ref: string };

export type MediaType = { schema: JsonSchema | Reference; examples?: Record<string, Reference> };

/** A header described where it is used, when it differs by route (the scope challenge names the route's scope). */
export type HeaderObject = { description: string; required?: boolean; schema: JsonSchema; example?: string };

export type ResponseObject = {
  description: string;
  headers?: Record<string, Reference | HeaderObject>;
  content?: Record<string, MediaType>;
};

export type Parameter = {
  name: string;
  in: "path" | "query" | "header";
  required: boolean;
  description?: string;
  schema: JsonSchema;
};

export type RequestBody = { required: boolean; description?: string; content: Record<string, MediaType> };

/** One way to authenticate: a scheme's name and, for our API keys, the scope the operation needs. */
export type SecurityRequirement = Record<string, Scope[]>;

export type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  security: SecurityRequirement[];
  "x-keyport-scope": Scope;
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject>;
};

export type PathItem = Partial<Record<"get" | "post", Operation>>;
