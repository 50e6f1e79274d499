// The app instance's own worker runs queued generations.
import { expect, test } from "@playwright/test";
import { newUserWithKey } from "./helpers";

test("a generation queued on the running server succeeds within 5 seconds", async ({ page, request }) => {
  const key = await newUserWithKey(page, "generations");
  const headers = { Authorization: `Bearer ${key}` };

  const created = await request.post("/api/v1/apps/poster-studio/generations", {
    headers,
    data: { prompt: "a harbour at night" },
  });
  expect(created.status()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  await expect
    .poll(
      async () =>
        ((await (await request.get(`/api/v1/generations/${id}`, { headers })).json()) as { status: string }).status,
      {
        timeout: 5_000,
        intervals: [100],
      },
    )
    .toBe("succeeded");
  const done = (await (await request.get(`/api/v1/apps/poster-studio/generations/${id}`, { headers })).json()) as {
    output: { type: string; url: string };
  };
  expect(done.output.type).toBe("image/svg+xml");
});
