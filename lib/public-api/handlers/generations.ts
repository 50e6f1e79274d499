import type { z } from "zod";
import { findApp } from "../../catalog/catalog";
import { createGeneration, findGeneration, GenerationError, type GenerationInput } from "../../generations/service";
import type { Owner } from "../../owner";
import { ApiError } from "../api-error";
import {
  createAppGenerationRequestSchema,
  createGenerationRequestSchema,
  IDEMPOTENCY_KEY_PATTERN,
} from "../generation-schemas";
import type { HandlerContext } from "../handler";

const ownerOf = ({ key }: HandlerContext<unknown>): Owner => ({
  userId: key.userId,
  environment: key.environment,
  apiKeyId: key.id,
});

function idempotencyKey(request: Request): string | null {
  const value = request.headers.get("idempotency-key");
  if (value === null) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ApiError("invalid_request", {
      message: "Idempotency-Key must be 1 to 255 visible ASCII characters.",
      param: "Idempotency-Key",
    });
  }
  return value;
}

async function create(context: HandlerContext<unknown>, input: GenerationInput) {
  try {
    const { generation, replayed } = await createGeneration(ownerOf(context), input, idempotencyKey(context.request));
    return Response.json(generation, { status: 201, headers: replayed ? { "Idempotent-Replayed": "true" } : {} });
  } catch (error) {
    if (error instanceof GenerationError) {
      throw new ApiError(error.code, { message: error.message, ...(error.param ? { param: error.param } : {}) });
    }
    throw error;
  }
}

function requireApp(appId: string | undefined) {
  const app = findApp(appId ?? "");
  if (!app) throw new ApiError("not_found", { message: "No app with that id.", param: "app" });
  return app;
}

// POST /api/v1/generations
export async function createGenerationHandler(context: HandlerContext<unknown>) {
  const body = context.body as z.infer<typeof createGenerationRequestSchema>;
  return create(context, {
    model: body.model,
    app: null,
    prompt: body.prompt,
    inputFileId: body.input_file_id ?? null,
  });
}

// POST /api/v1/apps/[app]/generations: the app's model.
export async function createAppGenerationHandler(context: HandlerContext<unknown>) {
  const app = requireApp(context.params.app);
  const body = context.body as z.infer<typeof createAppGenerationRequestSchema>;
  return create(context, {
    model: app.model,
    app: app.id,
    prompt: body.prompt,
    inputFileId: body.input_file_id ?? null,
  });
}

const notFound = () => new ApiError("not_found", { message: "No generation with that id.", param: "id" });

// GET /api/v1/generations/[id]
export async function getGenerationHandler(context: HandlerContext<unknown>) {
  const generation = await findGeneration(ownerOf(context), context.params.id ?? "");
  if (!generation) throw notFound();
  return generation;
}

// GET /api/v1/apps/[app]/generations/[id]: only a generation of that app.
export async function getAppGenerationHandler(context: HandlerContext<unknown>) {
  const app = requireApp(context.params.app);
  const generation = await findGeneration(ownerOf(context), context.params.id ?? "", app.id);
  if (!generation) throw notFound();
  return generation;
}
