import "server-only";
import { z } from "zod";
import { jsonReply, TextReply, type ApiAnswer } from "../http/text-reply";
import { andThen, type MaybePromise } from "../maybe-promise";
import type { VerifiedKey } from "../keys/verify";
import { ApiError } from "./api-error";
import { publicRoutes, type RegisteredRoute, type RouteName } from "./routes";

// A handler is defined from its registry entry, so what it receives has the
// types of the entry's own schemas: params, query and body are parsed by
// them before the handler runs, and what it returns must fit the response
// schema. The gate reads the body (size, content type, JSON) and hands the
// rest over raw to `run`.

/** The verified key a request carries, as a handler sees it: the domain's VerifiedKey, narrowed. */
export type CallerKey = Pick<VerifiedKey, "id" | "publicId" | "teamId" | "userId" | "environment">;

/** What the gate hands over: the request, its key, and its inputs not yet validated. */
export interface RawInput {
  request: Request;
  requestId: string;
  key: CallerKey;
  params: Record<string, string>;
  query: Record<string, string>;
  /** The parsed JSON body; undefined for a GET, and for an upload (its handler reads the stream). */
  body: unknown;
}

export interface HandlerContext<Params, Query, Body, Form> {
  request: Request;
  requestId: string;
  key: CallerKey;
  params: Params;
  query: Query;
  body: Body;
  /** For a multipart route: validates the fields its handler received against the route's form schema. */
  parseForm: (fields: Record<string, unknown>) => Form;
}

export interface RouteHandler<Name extends string = string> {
  name: Name;
  /**
   * Validates the inputs (400 invalid_request naming the field), calls the
   * handler and answers: at once when the handler did, and a bad input is
   * thrown, not a rejected promise.
   */
  run: (input: RawInput) => MaybePromise<ApiAnswer>;
}

// What a route that declares no params, query, JSON body or form receives.
const NO_INPUT = { params: z.object({}), query: z.object({}), request: z.undefined(), form: z.never() };

type RouteOf<N extends RouteName> = Extract<RegisteredRoute, { name: N }>;
type WithInputs<R> = Omit<typeof NO_INPUT, keyof R> & R;

/** The registry entry named `name`, with a schema for every input it does not declare. */
export function handlerRoute<N extends RouteName>(name: N): WithInputs<RouteOf<N>> {
  const route = publicRoutes.find((candidate): candidate is RouteOf<N> => candidate.name === name);
  if (!route) throw new Error(`No public route is named ${name}.`);
  return { ...NO_INPUT, ...route };
}

type Issue = z.core.$ZodIssue | undefined;

/** A body or form field's error names its dotted path (messages.0.content). */
const fieldError = (fallback: string) => (issue: Issue) =>
  new ApiError("invalid_request", { message: issue?.message ?? fallback, param: issue?.path.join(".") || undefined });

/** A query or path parameter's error names the parameter. */
const parameterError = (fallback: string) => (issue: Issue) =>
  new ApiError("invalid_request", { message: issue?.message ?? fallback, param: String(issue?.path[0] ?? "") });

function parseOrRefuse<S extends z.ZodType>(schema: S, value: unknown, refuse: (issue: Issue) => ApiError) {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  throw refuse(parsed.error.issues[0]);
}

type Answer<S> = S extends z.ZodType ? z.input<S> : object;

/**
 * `defineHandler(handlerRoute("get_app"))(async ({ params }) => ...)`: the
 * handler's context and answer take their types from the route's schemas.
 * (Two calls, so the route's types are fixed before the handler is read:
 * in one call TypeScript would widen the literals the handler returns.)
 */
export function defineHandler<
  Name extends string,
  Params extends z.ZodType,
  Query extends z.ZodType,
  Body extends z.ZodType,
  Form extends z.ZodType,
  ResponseBody extends z.ZodType | undefined = undefined,
>(route: { name: Name; params: Params; query: Query; request: Body; form: Form; response?: ResponseBody }) {
  type Context = HandlerContext<z.output<Params>, z.output<Query>, z.output<Body>, z.output<Form>>;
  return (handle: (context: Context) => MaybePromise<ApiAnswer | Answer<ResponseBody>>): RouteHandler<Name> => ({
    name: route.name,
    run({ request, requestId, key, params, query, body }) {
      // The gate's order: the body, then the query; the path's params last (they cannot fail for a matching path).
      const context: Context = {
        request,
        requestId,
        key,
        body: parseOrRefuse(route.request, body, fieldError("The request body is not valid.")),
        query: parseOrRefuse(route.query, query, parameterError("The query is not valid.")),
        params: parseOrRefuse(route.params, params, parameterError("The path is not valid.")),
        parseForm: (fields) => parseOrRefuse(route.form, fields, fieldError("The form is not valid.")),
      };
      return andThen(handle(context), (result) => {
        if (result instanceof Response || result instanceof TextReply) return result;
        return jsonReply(route.response ? route.response.parse(result) : result);
      });
    },
  });
}
