import { findApp } from "../../catalog/model-catalog";
import { jsonReply } from "../../http/text-reply";
import { createGeneration, findGeneration, type GenerationInput } from "../../generations/service";
import { ownerOf } from "../../owner";
import { ApiError } from "../api-error";
import { refuseKeyInStoredValue } from "../credentials";
import { defineHandler, handlerRoute, type CallerKey } from "../define-handler";
import { IDEMPOTENCY_KEY_PATTERN } from "../generation-schemas";

/** Both create routes answer as the registry says (201), a replay too. */
const CREATED = handlerRoute("create_generation").success.status;

function idempotencyKey(request: Request): string | null {
  const value = request.headers.get("idempotency-key");
  if (value === null) return null;
  if (!IDEMPOTENCY_KEY_PATTERN.test(value)) {
    throw new ApiError("invalid_request", {
      message: "Idempotency-Key must be 1 to 255 visible ASCII characters.",
      param: "Idempotency-Key",
    });
  }
  // Kept for 24 hours in IdempotencyRecord: never a key.
  refuseKeyInStoredValue(value, "Idempotency-Key", "The Idempotency-Key header");
  return value;
}

async function create(key: CallerKey, request: Request, input: GenerationInput) {
  // Kept with the generation and drawn into its output: never a key.
  refuseKeyInStoredValue(input.prompt, "prompt", "The prompt");
  // A refusal of the domain's (an unknown file, a reused Idempotency-Key) is the gate's to answer.
  const { generation, replayed } = await createGeneration(ownerOf(key), input, idempotencyKey(request));
  return jsonReply(generation, CREATED, replayed ? ["Idempotent-Replayed", "true"] : []);
}

function requireApp(appId: string) {
  const app = findApp(appId);
  if (!app) throw new ApiError("not_found", { message: "No app with that id.", param: "app" });
  return app;
}

// POST /api/v1/generations
export const createGenerationHandler = defineHandler(handlerRoute("create_generation"))(
  async ({ body, key, request }) =>
    create(key, request, {
      model: body.model,
      app: null,
      prompt: body.prompt,
      inputFileId: body.input_file_id ?? null,
    }),
);

// POST /api/v1/apps/[app]/generations: the app's model.
export const createAppGenerationHandler = defineHandler(handlerRoute("create_app_generation"))(async ({
  body,
  key,
  params,
  request,
}) => {
  const app = requireApp(params.app);
  return create(key, request, {
    model: app.model,
    app: app.id,
    prompt: body.prompt,
    inputFileId: body.input_file_id ?? null,
  });
});

const notFound = () => new ApiError("not_found", { message: "No generation with that id.", param: "id" });

// GET /api/v1/generations/[id]
export const getGenerationHandler = defineHandler(handlerRoute("get_generation"))(async ({ key, params }) => {
  const generation = await findGeneration(ownerOf(key), params.id);
  if (!generation) throw notFound();
  return generation;
});

// GET /api/v1/apps/[app]/generations/[id]: only a generation of that app.
export const getAppGenerationHandler = defineHandler(handlerRoute("get_app_generation"))(async ({ key, params }) => {
  const app = requireApp(params.app);
  const generation = await findGeneration(ownerOf(key), params.id, app.id);
  if (!generation) throw notFound();
  return generation;
});
