// The catalog is in memory: these handlers answer at once, with no promise (lib/maybe-promise.ts).
import type { z } from "zod";
import { catalog, findApp, type App } from "../../catalog/model-catalog";
import { ApiError } from "../api-error";
import { defineHandler, handlerRoute } from "../define-handler";
import { paginate } from "../pagination";
import type { appSchema } from "../schemas";

const byId = <T extends { id: string }>(items: readonly T[]) => [...items].sort((a, b) => a.id.localeCompare(b.id));

const appObject = (app: App): z.input<typeof appSchema> => ({
  id: app.id,
  object: "app",
  name: app.name,
  description: app.description,
  model: app.model,
  created: app.created,
});

// GET /api/v1/media_models
export const listMediaModels = defineHandler(handlerRoute("list_media_models"))(({ query }) => {
  const page = paginate(byId(catalog.mediaModels), query);
  return {
    object: "list",
    data: page.data.map((m) => ({
      id: m.id,
      object: "media_model",
      name: m.name,
      modality: m.modality,
      created: m.created,
    })),
    has_more: page.has_more,
  };
});

// GET /api/v1/apps
export const listApps = defineHandler(handlerRoute("list_apps"))(({ query }) => {
  const page = paginate(byId(catalog.apps), query);
  return { object: "list", data: page.data.map(appObject), has_more: page.has_more };
});

// GET /api/v1/apps/[app]
export const getApp = defineHandler(handlerRoute("get_app"))(({ params }) => {
  const app = findApp(params.app);
  if (!app) throw new ApiError("not_found", { message: "No app with that id.", param: "app" });
  return appObject(app);
});

// GET /api/v1/models: the OpenAI list shape, so OpenAI's client libraries can read it.
export const listModels = defineHandler(handlerRoute("list_models"))(({ query }) => {
  const page = paginate(byId(catalog.textModels), query);
  return {
    object: "list",
    data: page.data.map((m) => ({ id: m.id, object: "model", created: m.created, owned_by: m.owned_by })),
    has_more: page.has_more,
  };
});
