// Streams through the real production server: not compressed, not buffered.
import { expect, test } from "@playwright/test";
import { newUserWithKey } from "./helpers";

test("a chat stream reaches the client event by event, uncompressed", async ({ page, baseURL }) => {
  const key = await newUserWithKey(page, "streaming");

  const response = await fetch(`${baseURL}/api/v1/chat/completions`, {
    method: "POST",
    headers: { Authorization: `Bearer ${key}`, "content-type": "application/json", "accept-encoding": "gzip, br" },
    body: JSON.stringify({
      model: "keyport-sandbox-mini",
      messages: [{ role: "user", content: "Tell me something" }],
      stream: true,
    }),
  });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(response.headers.get("content-encoding")).toBeNull();
  expect(response.headers.get("cache-control")).toContain("no-transform");

  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let reads = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    reads++;
    text += decoder.decode(value);
  }
  const events = text.trim().split("\n\n");
  expect(events.at(-1)).toBe("data: [DONE]");
  // The server paces its tokens: a buffered response would arrive in one or two reads.
  expect(reads).toBeGreaterThan(events.length / 2);
});
