// The public API over HTTP through the adapter server.mjs uses
// (lib/http/node-listener.ts, via tests/helpers/api-server.ts): what only a
// real socket can show.
import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createAccount } from "@/lib/auth/accounts";
import { db } from "@/lib/db";
import { createKey } from "@/lib/keys/lifecycle";
import { API_SECURITY_HEADERS } from "@/lib/security/api-headers";
import { startApiServer } from "../helpers/api-server";

let server: Awaited<ReturnType<typeof startApiServer>>;
let actor: { userId: string; ip: null; userAgent: null };

beforeAll(async () => {
  server = await startApiServer();
  const user = await createAccount(`adapter-${Date.now()}@example.com`, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  actor = { userId: user.userId, ip: null, userAgent: null };
});

afterAll(() => server.close());

/** Sends `text` as it is on a new connection and answers what comes back until the server closes or `ms` pass. */
function raw(text: string, { hangUp = false, ms = 2_000 } = {}): Promise<string> {
  const { port } = new URL(server.baseUrl);
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1");
    let received = "";
    socket.on("data", (chunk) => (received += chunk.toString("utf8")));
    socket.on("error", () => {});
    socket.on("close", () => resolve(received));
    socket.write(text, () => {
      if (hangUp) socket.destroy();
    });
    setTimeout(() => socket.destroy(), ms).unref();
  });
}

describe("every answer of the public API", () => {
  it("carries the security headers and a request id: success, refusal, unknown path, no valid Host", async () => {
    const { secret } = await createKey(actor, { label: "headers", environment: "dev", expiresAt: null });
    const answers = [
      await fetch(`${server.baseUrl}/api/v1/models`, { headers: { Authorization: `Bearer ${secret}` } }),
      await fetch(`${server.baseUrl}/api/v1/models`),
      await fetch(`${server.baseUrl}/api/v1/no-such-route`),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 404]);
    for (const answer of answers) {
      for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) expect(answer.headers.get(name)).toBe(value);
      expect(answer.headers.get("x-request-id")).toMatch(/^req_/);
    }

    // HTTP/1.0 without a Host reaches the adapter, which cannot make it a URL: the catalog's 400.
    const noHost = await raw("GET /api/v1/models HTTP/1.0\r\n\r\n");
    expect(noHost).toMatch(/^HTTP\/1\.[01] 400/);
    for (const [name, value] of Object.entries(API_SECURITY_HEADERS)) {
      expect(noHost.toLowerCase()).toContain(`${name.toLowerCase()}: ${value.toLowerCase()}`);
    }
    expect(noHost.toLowerCase()).toMatch(/x-request-id: req_/);
    expect(noHost).toContain('"code":"invalid_request"');
  });
});

describe("a client that hangs up in the middle of its body", () => {
  it("is a client error in the usage log (400), not a server error, and logs no stack", async () => {
    const { key, secret } = await createKey(actor, { label: "hang up", environment: "dev", expiresAt: null });
    const errors = vi.spyOn(console, "error");
    const { host } = new URL(server.baseUrl);
    await raw(
      [
        "POST /api/v1/chat/completions HTTP/1.1",
        `Host: ${host}`,
        `Authorization: Bearer ${secret}`,
        "Content-Type: application/json",
        "Content-Length: 100",
        "",
        '{"model":',
      ].join("\r\n"),
      { hangUp: true },
    );
    const row = await db.apiKey.findUniqueOrThrow({ where: { publicId: key.id }, select: { id: true } });
    // The process's usage buffer flushes every second.
    await expect
      .poll(async () => db.usageEvent.findMany({ where: { keyId: row.id }, select: { status: true } }), {
        timeout: 10_000,
      })
      .toEqual([{ status: 400 }]);
    expect(errors.mock.calls.flat().join("\n")).not.toContain("api.unhandled_error");
    errors.mockRestore();
  });
});
