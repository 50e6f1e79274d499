// The OpenAPI document: valid OpenAPI 3.1 by a maintained validator, and in
// step with the route registry and the error catalog. Each comparison helper
// is also shown a broken document, so a check that could never fail would show.
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, expectTypeOf, it } from "vitest";
import type { z } from "zod";
import { errorCatalog, errorCodes } from "@/lib/errors/error-catalog";
import type { FileObject } from "@/lib/files/store";
import type { GenerationObject } from "@/lib/generations/objects";
import { insufficientScopeChallenge } from "@/lib/public-api/credentials";
import { openApiDocument } from "@/lib/public-api/openapi";
import { fileSchema, generationSchema } from "@/lib/public-api/openapi/response-schemas";
import type { Operation, PathItem, Reference } from "@/lib/public-api/openapi/types";
import { publicRoutes, routeErrors, type PublicRoute } from "@/lib/public-api/routes";
import { SCOPE_NAMES, SCOPES } from "@/lib/keys/scopes";

const BASE_URL = "https://keyport.example";
const routes = publicRoutes as readonly PublicRoute[];

/** What GET /openapi.json sends: the document after a JSON round trip. */
const served = () => JSON.parse(JSON.stringify(openApiDocument(BASE_URL))) as ReturnType<typeof openApiDocument>;

type Paths = Record<string, PathItem>;

/** Every operation as "METHOD path name", sorted. */
function operationsOf(paths: Paths): string[] {
  return Object.entries(paths)
    .flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => `${method.toUpperCase()} ${path} ${(op as Operation).operationId}`),
    )
    .sort();
}

const expectedOperations = routes
  .map((route) => `${route.method} ${route.path.replace(/\[([a-z]+)\]/g, "{$1}")} ${route.name}`)
  .sort();

/** The error codes an operation documents, with the status each sits under. */
function documentedCodes(op: Operation): Array<[string, string]> {
  return Object.entries(op.responses)
    .filter(([status]) => Number(status) >= 400)
    .flatMap(([status, response]) =>
      Object.keys(response.content?.["application/json"]?.examples ?? {}).map((code): [string, string] => [
        code,
        status,
      ]),
    );
}

const expectedCodes = (route: PublicRoute) =>
  routeErrors(route).map((code): [string, string] => [code, String(errorCatalog[code].status)]);

/** Each operation's scope as its two security requirements and x-keyport-scope say it, sorted. */
function documentedScopes(paths: Paths): string[] {
  return Object.values(paths)
    .flatMap((item) => Object.values(item))
    .map((op) => `${op.operationId} ${JSON.stringify(op.security)} ${op["x-keyport-scope"]}`)
    .sort();
}

const expectedScopes = routes
  .map(
    (route) =>
      `${route.name} ${JSON.stringify([{ bearerAuth: [route.scope] }, { apiKeyHeader: [route.scope] }])} ${route.scope}`,
  )
  .sort();

const stubOperation = (operationId: string): Operation => ({
  operationId,
  summary: "",
  tags: [],
  security: [],
  "x-keyport-scope": "catalog:read",
  responses: {},
});

function operationOf(paths: Paths, route: PublicRoute): Operation {
  const item = paths[route.path.replace(/\[([a-z]+)\]/g, "{$1}")];
  const op = item?.[route.method === "GET" ? "get" : "post"];
  if (!op) throw new Error(`No operation for ${route.name}`);
  return op;
}

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 for @seriousme/openapi-schema-validator", async () => {
    const validator = new Validator();
    const result = await validator.validate(served());
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("would be refused by the validator if it were broken", async () => {
    const badPath = served() as unknown as { paths: Record<string, unknown> };
    badPath.paths["no-leading-slash"] = {};
    expect((await new Validator().validate(badPath)).valid).toBe(false);

    const danglingRef = served();
    const schemas: Record<string, unknown> = danglingRef.components.schemas;
    schemas.Generation = { $ref: "#/nowhere" };
    expect((await new Validator().validate(danglingRef)).valid).toBe(false);
  });

  it("declares OpenAPI 3.1.0, the deployment's origin and the docs", () => {
    const doc = served();
    expect(doc.openapi).toBe("3.1.0");
    expect(doc.info).toMatchObject({ title: "Keyport API", version: "1.0.0" });
    expect(doc.info.description).toMatch(/Authorization: Bearer/);
    expect(doc.info.description).toMatch(/X-API-Key/);
    expect(doc.info.description).toMatch(/\/docs/);
    expect(doc.servers).toEqual([{ url: BASE_URL }]);
    expect(openApiDocument(`${BASE_URL}/`).servers).toEqual([{ url: BASE_URL }]);
  });

  it("accepts a key in either header, Bearer first", () => {
    const doc = served();
    expect(doc.components.securitySchemes).toEqual({
      bearerAuth: expect.objectContaining({ type: "http", scheme: "bearer" }),
      apiKeyHeader: expect.objectContaining({ type: "apiKey", in: "header", name: "X-API-Key" }),
    });
    expect(doc.components.securitySchemes.bearerAuth.description).toMatch(/recommended/i);
    expect(doc.security).toEqual([{ bearerAuth: [] }, { apiKeyHeader: [] }]);
  });

  it("asks each operation for its route's scope, in both header forms and as x-keyport-scope", () => {
    expect(documentedScopes(served().paths as Paths)).toEqual(expectedScopes);
  });

  it("would notice an operation whose scope is not the registry's", () => {
    const route = routes.find((r) => r.name === "create_generation")!;
    const wrongRequirement = served().paths as Paths;
    operationOf(wrongRequirement, route).security = [
      { bearerAuth: ["generations:read"] },
      { apiKeyHeader: [route.scope] },
    ];
    expect(documentedScopes(wrongRequirement)).not.toEqual(expectedScopes);

    const oneForm = served().paths as Paths;
    operationOf(oneForm, route).security = [{ bearerAuth: [route.scope] }];
    expect(documentedScopes(oneForm)).not.toEqual(expectedScopes);

    const wrongExtension = served().paths as Paths;
    operationOf(wrongExtension, route)["x-keyport-scope"] = "generations:read";
    expect(documentedScopes(wrongExtension)).not.toEqual(expectedScopes);
  });

  it("describes every scope, All and Read only in the bearer scheme", () => {
    const { description } = served().components.securitySchemes.bearerAuth;
    for (const scope of SCOPE_NAMES) expect(description).toContain(`\`${scope}\`: ${SCOPES[scope]}`);
    expect(description).toMatch(/All .*Read only/s);
    expect(description).toContain("insufficient_scope");
    expect(served().components.securitySchemes.apiKeyHeader.description).toMatch(/same scopes/i);
  });

  it("documents both 403s on every operation, with the challenge that names the route's scope", () => {
    const paths = served().paths as Paths;
    for (const route of routes) {
      const forbidden = operationOf(paths, route).responses["403"];
      expect(Object.keys(forbidden?.content?.["application/json"]?.examples ?? {}), route.name).toEqual([
        "ip_not_allowed",
        "insufficient_scope",
      ]);
      expect(forbidden?.headers?.["WWW-Authenticate"], route.name).toMatchObject({
        required: false,
        example: insufficientScopeChallenge(route.scope),
      });
    }
    const { responses } = served().components;
    expect(responses.insufficient_scope?.headers).toHaveProperty("WWW-Authenticate");
    expect(responses.ip_not_allowed?.headers).not.toHaveProperty("WWW-Authenticate");
  });

  it("has exactly one operation per registry route, and nothing else", () => {
    const operations = operationsOf(served().paths);
    expect(operations).toHaveLength(13);
    expect(operations).toEqual(expectedOperations);
    expect(operations).toContain("POST /api/v1beta/models/{model}:generateContent generate_content");
  });

  it("would notice an extra path, an extra method or a missing route", () => {
    const extraPath = served().paths as Paths;
    extraPath["/api/v1/extra"] = { get: stubOperation("extra") };
    expect(operationsOf(extraPath)).not.toEqual(expectedOperations);

    const extraMethod = served().paths as Paths;
    extraMethod["/api/v1/models"]!.post = stubOperation("list_models");
    expect(operationsOf(extraMethod)).not.toEqual(expectedOperations);

    const missing = served().paths as Paths;
    delete missing["/api/v1/files"];
    expect(operationsOf(missing)).not.toEqual(expectedOperations);
  });

  it("names, summarises, tags and parameterises each operation from the registry", () => {
    const paths = served().paths as Paths;
    for (const route of routes) {
      const op = operationOf(paths, route);
      expect(op.summary).toBe(route.summary);
      expect(op.tags).toEqual([route.path.startsWith("/api/v1beta/") ? "v1beta" : "v1"]);
      const pathParams = (op.parameters ?? []).filter((p) => p.in === "path");
      expect(pathParams.map((p) => p.name)).toEqual([...route.path.matchAll(/\[([a-z]+)\]/g)].map((m) => m[1]));
      expect(pathParams.every((p) => p.required && p.schema.type === "string")).toBe(true);
      const queryNames = (op.parameters ?? []).filter((p) => p.in === "query").map((p) => p.name);
      if (route.query) expect(queryNames).toEqual(Object.keys(route.query.shape));
      expect(Boolean(op.requestBody), route.name).toBe(route.method === "POST");
    }
  });

  it("documents the upload as multipart with a binary file field", () => {
    const op = operationOf(
      served().paths as Paths,
      routes.find((route) => route.name === "upload_file")!,
    );
    const schema = op.requestBody?.content["multipart/form-data"]?.schema as Record<string, unknown>;
    expect(schema).toMatchObject({ required: ["file"], properties: { file: { type: "string", format: "binary" } } });
  });

  it("documents the stream as server-sent events or a JSON array, chosen by ?alt", () => {
    const op = operationOf(
      served().paths as Paths,
      routes.find((route) => route.name === "stream_generate_content")!,
    );
    expect(Object.keys(op.responses["200"]?.content ?? {}).sort()).toEqual(["application/json", "text/event-stream"]);
    expect(op.parameters?.find((p) => p.name === "alt")?.schema).toEqual({ type: "string", enum: ["sse"] });
  });

  it("takes an Idempotency-Key and answers 201 on exactly the two generation POSTs", () => {
    const paths = served().paths as Paths;
    const withKey = routes.filter((route) =>
      operationOf(paths, route).parameters?.some((p) => p.in === "header" && p.name === "Idempotency-Key"),
    );
    expect(withKey.map((route) => route.name).sort()).toEqual(["create_app_generation", "create_generation"]);
    for (const route of withKey) {
      expect(operationOf(paths, route).responses["201"]?.headers).toHaveProperty("Idempotent-Replayed");
    }
  });

  it("sends the request id and the rate-limit headers with every success", () => {
    const paths = served().paths as Paths;
    for (const route of routes) {
      const [status, success] = Object.entries(operationOf(paths, route).responses)[0]!;
      expect(status, route.name).toMatch(/^20[01]$/);
      expect(Object.keys(success.headers ?? {}), route.name).toEqual(
        expect.arrayContaining(["X-Request-Id", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"]),
      );
    }
  });

  it("lists every code routeErrors gives a route, under its status, and no other", () => {
    const paths = served().paths as Paths;
    for (const route of routes) {
      const op = operationOf(paths, route);
      expect(documentedCodes(op).sort(), route.name).toEqual(expectedCodes(route).sort());
      for (const code of routeErrors(route)) {
        const response = op.responses[String(errorCatalog[code].status)];
        expect(response?.description, `${route.name} ${code}`).toContain(`\`${code}\``);
        expect(response?.content?.["application/json"]?.schema).toEqual({ $ref: "#/components/schemas/Error" });
      }
    }
  });

  it("would notice a missing or misplaced error code", () => {
    const route = routes.find((r) => r.name === "create_generation")!;
    const dropped = operationOf(served().paths as Paths, route);
    delete dropped.responses["422"];
    expect(documentedCodes(dropped).sort()).not.toEqual(expectedCodes(route).sort());

    const moved = operationOf(served().paths as Paths, route);
    const notFound: Reference = { $ref: "#/components/examples/not_found" };
    moved.responses["400"]!.content!["application/json"]!.examples!["not_found"] = notFound;
    delete moved.responses["404"];
    expect(documentedCodes(moved).sort()).not.toEqual(expectedCodes(route).sort());
  });

  it("describes the error body and one response and example per catalog code", () => {
    const { components } = served();
    expect(components.schemas.Error.properties.error.properties.code.enum).toEqual(errorCodes);
    expect(Object.keys(components.responses)).toEqual(errorCodes);
    for (const code of errorCodes) {
      expect(components.responses[code]?.description).toBe(errorCatalog[code].message);
      expect(components.examples[code]?.value.error).toMatchObject({
        code,
        type: errorCatalog[code].type,
        doc_url: `${BASE_URL}/docs/errors#${code}`,
      });
    }
  });
});

describe("the documented response shapes", () => {
  it("are the handlers' generation and file objects, field for field", () => {
    expectTypeOf<z.output<typeof generationSchema>>().toEqualTypeOf<GenerationObject>();
    expectTypeOf<z.output<typeof fileSchema>>().toEqualTypeOf<FileObject>();
  });
});

describe("each route's success", () => {
  it("is documented with the status, description and body the registry declares for it", () => {
    const doc = served();
    for (const route of publicRoutes as readonly PublicRoute[]) {
      const item = doc.paths[route.path.replace(/\[([a-z]+)\]/g, "{$1}")] as PathItem;
      const responses = (route.method === "GET" ? item.get : item.post)!.responses as Record<string, unknown>;
      const successes = Object.keys(responses).filter((status) => status.startsWith("2"));
      expect(successes, route.name).toEqual([String(route.success.status)]);
      const answer = responses[successes[0]!] as { description: string; content: Record<string, unknown> };
      expect(answer.description, route.name).toBe(route.success.description);
      expect(Object.keys(answer.content).sort(), route.name).toEqual(
        [
          ...(route.success.json || route.response ? ["application/json"] : []),
          ...(route.success.eventStream ? ["text/event-stream"] : []),
        ].sort(),
      );
    }
    // The two create routes are the only ones that answer 201, and a replay says so.
    const created = (publicRoutes as readonly PublicRoute[]).filter((route) => route.success.status === 201);
    expect(created.map((route) => route.name).sort()).toEqual(["create_app_generation", "create_generation"]);
    expect(created.every((route) => route.success.replayable)).toBe(true);
  });
});
