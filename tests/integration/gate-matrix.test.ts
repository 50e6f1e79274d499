// The gate's matrix: every route against every credential case.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { API_KEY_PATTERN } from "@/lib/keys/format";
import { routeErrors, type PublicRoute } from "@/lib/public-api/routes";
import { callApi, concretePath, makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";

// The matrix sends hundreds of requests with one key: lift the limit here
// (rate-limit.test.ts covers the limit itself).
vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "100000";
});

let keys: KeyFixtures;
beforeAll(async () => {
  keys = await makeKeyFixtures();
});

/** callApi, plus a check that every error code seen is one the docs list for the route. */
async function call(route: PublicRoute, options?: Parameters<typeof callApi>[1]) {
  const result = await callApi(route, options);
  if (result.status >= 400) expect(routeErrors(route), route.name).toContain(result.json.error.code);
  return result;
}

const bearer = (key: string) => ({ Authorization: `Bearer ${key}` });

function expectSuccess(route: PublicRoute, result: Awaited<ReturnType<typeof callApi>>) {
  expect(result.status, route.name).toBe(route.path.endsWith("/generations") ? 201 : 200);
  expect(result.headers.get("ratelimit-limit")).toBe("100000");
  // Present and whole: this request was counted against the 100,000, and the window ends within a minute.
  expect(result.headers.get("ratelimit-remaining")).toMatch(/^\d+$/);
  expect(Number(result.headers.get("ratelimit-remaining"))).toBeLessThan(100_000);
  expect(result.headers.get("ratelimit-reset")).toMatch(/^\d+$/);
  expect(Number(result.headers.get("ratelimit-reset"))).toBeGreaterThan(0);
  expect(Number(result.headers.get("ratelimit-reset"))).toBeLessThanOrEqual(60);
}

function expectError(result: Awaited<ReturnType<typeof callApi>>, status: number, code: string) {
  expect(result.status).toBe(status);
  expect(result.headers.get("content-type")).toMatch(/^application\/json/);
  expect(result.json.error).toMatchObject({
    code,
    doc_url: expect.stringMatching(new RegExp(`/docs/errors#${code}$`)),
  });
  expect(result.json.error.request_id).toBe(result.headers.get("x-request-id"));
}

describe.each(publicRoutes.map((route) => [route.name, route] as const))("%s", (_name, route) => {
  it("every response is no-store with a request id", async () => {
    for (const headers of [{}, bearer(keys.valid)]) {
      const result = await call(route, { headers });
      expect(result.headers.get("cache-control")).toMatch(/(^|, )no-store$/);
      expect(result.headers.get("x-request-id")).toMatch(/^req_[0-9a-z]{24}$/);
    }
  });

  it("no key: 401 missing_api_key with WWW-Authenticate", async () => {
    const result = await call(route);
    expectError(result, 401, "missing_api_key");
    expect(result.headers.get("www-authenticate")).toBe('Bearer realm="keyport"');
  });

  it("a valid key in either header form, or both headers with the same key, passes the gate", async () => {
    expectSuccess(route, await call(route, { headers: bearer(keys.valid) }));
    expectSuccess(route, await call(route, { headers: { "x-api-key": keys.valid } }));
    expectSuccess(route, await call(route, { headers: { "X-API-KEY": keys.valid } }));
    expectSuccess(route, await call(route, { headers: { Authorization: `bEaReR ${keys.valid}` } }));
    expectSuccess(route, await call(route, { headers: { ...bearer(keys.valid), "X-API-Key": keys.valid } }));
    expectSuccess(route, await call(route, { headers: bearer(keys.rotatedInGrace) }));
  });

  it("both headers with different keys: 400 invalid_request", async () => {
    const result = await call(route, { headers: { ...bearer(keys.valid), "X-API-Key": keys.validProd } });
    expectError(result, 400, "invalid_request");
    expect(result.json.error.message).toMatch(/Send the key in one header/);
  });

  it("another scheme, malformed, bad checksum, unknown or other-environment keys: the same 401 invalid_api_key", async () => {
    const bodies = [];
    for (const headers of [
      { Authorization: `Basic ${btoa("user:pass")}` },
      bearer("sk_dev_short"),
      bearer("not a key at all"),
      { "X-API-Key": keys.badChecksum },
      bearer(keys.unknown),
      bearer(keys.otherEnvironment),
      { Authorization: "Bearer" },
    ]) {
      const result = await call(route, { headers });
      expectError(result, 401, "invalid_api_key");
      expect(result.headers.get("www-authenticate")).toBe('Bearer realm="keyport", error="invalid_token"');
      expect(result.text).not.toContain("sk_");
      const rest = { ...result.json.error };
      delete rest.request_id;
      bodies.push(rest);
    }
    expect(new Set(bodies.map((body) => JSON.stringify(body))).size).toBe(1);
  });

  it("a key sent without the Bearer scheme: 401 invalid_api_key that says how to send it, echoing nothing", async () => {
    for (const headers of [
      { Authorization: keys.valid },
      { Authorization: `Token ${keys.valid}` },
      { Authorization: `Basic ${btoa(`${keys.valid}:`)}` },
    ]) {
      const result = await call(route, { headers });
      expectError(result, 401, "invalid_api_key");
      expect(result.json.error.message).toBe(
        "The API key is not valid: send it as Authorization: Bearer <key>, or in the X-API-Key header.",
      );
      expect(result.text).not.toContain(keys.valid.slice(7));
      expect(result.text).not.toContain(btoa(`${keys.valid}:`));
    }
  });

  it("revoked: 401 revoked_api_key; expired or rotated past its grace: 401 expired_api_key", async () => {
    const revoked = await call(route, { headers: bearer(keys.revoked) });
    expectError(revoked, 401, "revoked_api_key");
    expectError(await call(route, { headers: bearer(keys.expired) }), 401, "expired_api_key");
    const rotated = await call(route, { headers: bearer(keys.rotatedAfterGrace) });
    expectError(rotated, 401, "expired_api_key");
    for (const result of [revoked, rotated]) {
      expect(result.headers.get("www-authenticate")).toBe('Bearer realm="keyport", error="invalid_token"');
    }
  });

  it("a session cookie alone: 401 missing_api_key", async () => {
    const result = await call(route, { headers: { cookie: "keyport.session=anything-at-all" } });
    expectError(result, 401, "missing_api_key");
  });

  it("a key in the query string: 400 invalid_request, even with a valid header", async () => {
    for (const query of [
      `key=${keys.valid}`,
      "api_key=whatever",
      `token=${keys.valid}`,
      keys.valid,
      `${keys.valid}=1`,
    ]) {
      const result = await call(route, { headers: bearer(keys.valid), path: `${callPath(route)}?${query}` });
      expectError(result, 400, "invalid_request");
      expect(result.text).not.toContain(keys.valid);
    }
  });

  it("a wrong method: 405 method_not_allowed with Allow", async () => {
    for (const method of ["PUT", "DELETE", "PATCH", route.method === "GET" ? "POST" : "GET", "OPTIONS"]) {
      const result = await call(route, { method, headers: bearer(keys.valid) });
      expectError(result, 405, "method_not_allowed");
      expect(result.headers.get("allow")).toBe(route.method === "GET" ? "GET, HEAD" : "POST");
      expect(result.headers.get("access-control-allow-origin")).toBeNull();
    }
  });

  if (route.method === "POST") {
    it("a body over the limit: 413 payload_too_large", async () => {
      const size = route.body === "multipart" ? 20 * 1024 * 1024 + 1 : 1024 * 1024 + 1;
      const big = new Uint8Array(size).fill(32);
      const type = route.body === "multipart" ? "multipart/form-data; boundary=x" : "application/json";
      expectError(
        await call(route, { headers: { ...bearer(keys.valid), "content-type": type }, body: big }),
        413,
        "payload_too_large",
      );
    });

    it("a wrong content type: 415; malformed JSON: 400", async () => {
      expectError(
        await call(route, { headers: { ...bearer(keys.valid), "content-type": "text/plain" }, body: "hello" }),
        415,
        "unsupported_media_type",
      );
      if (route.body === "json") {
        const result = await call(route, {
          headers: { ...bearer(keys.valid), "content-type": "application/json" },
          body: "{not json",
        });
        expectError(result, 400, "invalid_request");
      }
    });
  } else {
    it("HEAD behaves as GET, without a body", async () => {
      const result = await call(route, { method: "HEAD", headers: bearer(keys.valid) });
      const get = await call(route, { headers: bearer(keys.valid) });
      expect(result.status).toBe(get.status);
      expect(result.headers.get("content-type")).toBe(get.headers.get("content-type"));
      expect(result.text).toBe("");
      expect(result.headers.get("ratelimit-limit")).toBe("100000");
    });
  }
});

const callPath = (route: PublicRoute) => concretePath(route);

describe("unknown paths", () => {
  it.each([
    "/api/v1",
    "/api/v1/nope",
    "/api/v1/apps/x/y/z",
    "/api/v1beta",
    "/api/v1beta/models/m:fooBar",
    "/api/v1beta/models/m",
  ])("%s: 404 not_found before any credential check", async (path) => {
    // Not a route's answer: the path matches none, so callApi, not call.
    const result = await callApi(publicRoutes[0], { path, method: "GET" });
    expectError(result, 404, "not_found");
  });

  it("the model id is everything before the last colon", async () => {
    const route = publicRoutes.find((r) => r.name === "generate_content")!;
    const result = await call(route, {
      headers: bearer(keys.valid),
      path: "/api/v1beta/models/org:model-1.5:generateContent",
    });
    // Routed to generateContent with the model "org:model-1.5", which the catalog does not list.
    expectError(result, 400, "invalid_request");
    expect(result.json.error.param).toBe("model");
  });
});

describe("odd paths", () => {
  it("a malformed escape in a path parameter is a 404, not a 500", async () => {
    const result = await call(
      publicRoutes.find((r) => r.name === "get_app")!,
      {
        headers: bearer(keys.valid),
        path: "/api/v1/apps/%E0",
      },
    );
    expectError(result, 404, "not_found");
  });
});

describe("keys", () => {
  it("are never echoed, and look like the documented pattern", () => {
    expect(keys.valid).toMatch(API_KEY_PATTERN);
    expect(keys.otherEnvironment).toMatch(API_KEY_PATTERN);
  });
});
