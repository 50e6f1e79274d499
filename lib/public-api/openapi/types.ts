// The few OpenAPI 3.1 shapes the document uses, typed just enough for the
// builder and the tests to agree on them. Type aliases rather than interfaces,
// so a document passes as a plain Record<string, unknown>.
export type JsonSchema = Record<string, unknown>;

export type Reference = { $ref: string };

export type MediaType = { schema: JsonSchema | Reference; examples?: Record<string, Reference> };

export type ResponseObject = {
  description: string;
  headers?: Record<string, Reference>;
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

export type Operation = {
  operationId: string;
  summary: string;
  tags: string[];
  parameters?: Parameter[];
  requestBody?: RequestBody;
  responses: Record<string, ResponseObject>;
};

export type PathItem = Partial<Record<"get" | "post", Operation>>;
