import { beforeAll, describe, expect, it } from "vitest";
import { catalog } from "@/lib/catalog/model-catalog";
import { callApi, makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";

let keys: KeyFixtures;
beforeAll(async () => {
  keys = await makeKeyFixtures();
});

const route = (name: string) => publicRoutes.find((r) => r.name === name)!;
const get = (name: string, path?: string) =>
  callApi(route(name), { headers: { Authorization: `Bearer ${keys.validProd}` }, path });

describe("GET /api/v1/models", () => {
  it("uses the OpenAI list shape", async () => {
    const { status, json } = await get("list_models");
    expect(status).toBe(200);
    expect(json.object).toBe("list");
    expect(json.data).toHaveLength(catalog.textModels.length);
    for (const model of json.data) {
      expect(Object.keys(model).sort()).toEqual(["created", "id", "object", "owned_by"]);
      expect(model).toMatchObject({
        object: "model",
        id: expect.any(String),
        owned_by: expect.any(String),
        created: expect.any(Number),
      });
    }
    expect(json.has_more).toBe(false);
  });
});

describe("GET /api/v1/media_models and /api/v1/apps", () => {
  it("list media models with their modality", async () => {
    const { json } = await get("list_media_models");
    expect(json.data.map((m: { modality: string }) => m.modality).sort()).toEqual(["audio", "image", "image", "video"]);
    expect(json.data[0]).toMatchObject({ object: "media_model", id: expect.any(String), name: expect.any(String) });
  });

  it("page with limit and after, and say when more follow", async () => {
    const all = (await get("list_apps")).json.data.map((a: { id: string }) => a.id);
    expect(all).toHaveLength(catalog.apps.length);
    const first = await get("list_apps", "/api/v1/apps?limit=1");
    expect(first.json.data.map((a: { id: string }) => a.id)).toEqual([all[0]]);
    expect(first.json.has_more).toBe(true);
    const next = await get("list_apps", `/api/v1/apps?limit=2&after=${all[0]}`);
    expect(next.json.data.map((a: { id: string }) => a.id)).toEqual(all.slice(1, 3));
    const last = await get("list_apps", `/api/v1/apps?limit=100&after=${all.at(-2)}`);
    expect(last.json).toMatchObject({ data: [expect.objectContaining({ id: all.at(-1) })], has_more: false });
    const empty = await get("list_apps", `/api/v1/apps?after=${all.at(-1)}`);
    expect(empty.json).toMatchObject({ data: [], has_more: false });
    const exact = await get("list_apps", `/api/v1/apps?limit=${all.length}`);
    expect(exact.json.has_more).toBe(false);
  });

  it.each(["0", "101", "-1", "abc", "1.5", ""])("refuses limit=%s with 400 naming the parameter", async (limit) => {
    const result = await get("list_apps", `/api/v1/apps?limit=${limit}`);
    expect(result.status).toBe(400);
    expect(result.json.error).toMatchObject({ code: "invalid_request", param: "limit" });
  });

  it("refuses an unknown cursor", async () => {
    const result = await get("list_media_models", "/api/v1/media_models?after=no-such-model");
    expect(result.json.error).toMatchObject({ code: "invalid_request", param: "after" });
  });
});

describe("GET /api/v1/apps/[app]", () => {
  it("reads one app, and answers 404 for an unknown one", async () => {
    const found = await get("get_app", "/api/v1/apps/clip-teaser");
    expect(found.status).toBe(200);
    expect(found.json).toEqual({
      id: "clip-teaser",
      object: "app",
      name: "Clip Teaser",
      description: expect.any(String),
      model: "drift-video-1",
      created: expect.any(Number),
    });
    const missing = await get("get_app", "/api/v1/apps/no-such-app");
    expect(missing.status).toBe(404);
    expect(missing.json.error).toMatchObject({ code: "not_found", param: "app" });
  });
});
