// A handler defined from its registry entry validates its inputs with the entry's schemas.
import { describe, expect, it } from "vitest";
import { toResponse } from "@/lib/http/text-reply";
import type { RawInput } from "@/lib/public-api/define-handler";
import { getApp, listApps } from "@/lib/public-api/handlers/catalog-lists";
import { createChatCompletion } from "@/lib/public-api/handlers/models";

const raw = (input: Partial<RawInput>): RawInput => ({
  request: new Request("http://localhost/"),
  requestId: "req_test",
  key: { id: "k", publicId: "key_test", teamId: "t", userId: "u", environment: "dev" },
  params: {},
  query: {},
  body: undefined,
  ...input,
});

/** run's answer as a promise: a bad input is thrown at once, a handler's refusal may come later. */
const settled = <T>(run: () => T | Promise<T>) => Promise.resolve().then(run);

describe("defineHandler's run", () => {
  it("parses the query and answers with the response schema's fields", async () => {
    const body = await toResponse(await listApps.run(raw({ query: { limit: "1" } }))).json();
    expect(body).toMatchObject({ object: "list", has_more: true });
    expect(body.data).toHaveLength(1);
  });

  it("refuses a bad query with invalid_request naming the parameter", async () => {
    await expect(settled(() => listApps.run(raw({ query: { limit: "0" } })))).rejects.toMatchObject({
      code: "invalid_request",
      options: { param: "limit" },
    });
  });

  it("refuses a bad JSON body with invalid_request naming the field's path", async () => {
    const body = { model: "keyport-sandbox-mini", messages: [{ role: "narrator", content: "hi" }] };
    await expect(settled(() => createChatCompletion.run(raw({ body })))).rejects.toMatchObject({
      code: "invalid_request",
      options: { param: "messages.0.role" },
    });
  });

  it("hands the handler its path params", async () => {
    const answer = await getApp.run(raw({ params: { app: "poster-studio" } }));
    expect(await toResponse(answer).json()).toMatchObject({ id: "poster-studio", object: "app" });
    await expect(settled(() => getApp.run(raw({ params: { app: "nope" } })))).rejects.toMatchObject({
      code: "not_found",
      options: { param: "app" },
    });
  });
});
