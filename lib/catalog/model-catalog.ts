// The catalog the read-only routes serve: media models, the apps built on
// them, and text models. It is reference data that ships with each release,
// so it lives in a reviewed file in the repo (model-catalog.json) rather than in
// rows an instance could change; every instance serves the same catalog.
import { z } from "zod";
import raw from "./model-catalog.json";

const id = z.string().regex(/^[a-z0-9][a-z0-9.-]{0,63}$/);

const catalogSchema = z
  .object({
    mediaModels: z.array(
      z.object({ id, name: z.string(), modality: z.enum(["image", "video", "audio"]), created: z.number().int() }),
    ),
    apps: z.array(z.object({ id, name: z.string(), description: z.string(), model: id, created: z.number().int() })),
    textModels: z.array(z.object({ id, owned_by: z.string(), created: z.number().int() })),
  })
  .superRefine((catalog, ctx) => {
    const media = new Set(catalog.mediaModels.map((m) => m.id));
    for (const app of catalog.apps) {
      if (!media.has(app.model))
        ctx.addIssue({ code: "custom", message: `app ${app.id} uses unknown media model ${app.model}` });
    }
  });

export const catalog = catalogSchema.parse(raw);

export type MediaModel = (typeof catalog.mediaModels)[number];
export type App = (typeof catalog.apps)[number];
export type TextModel = (typeof catalog.textModels)[number];

export function findApp(appId: string): App | undefined {
  return catalog.apps.find((app) => app.id === appId);
}
