// Property-based: 10,000 generated requests (in CI) handed straight to the
// gate's entry point as Fetch requests, in process: no socket, since HTTP adds
// nothing to what this checks. Whatever the headers and bodies, the gate never
// answers 5xx, and never answers 2xx unless the request carried a valid key in
// a header.
import fc from "fast-check";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { generateApiKey } from "@/lib/keys/format";
import { callApi, makeKeyFixtures, publicRoutes, type KeyFixtures } from "../helpers/api-fixtures";
import { propertyRuns } from "../helpers/property-runs";

// 10,000 cases in CI; a tenth on a developer's machine (tests/helpers/property-runs.ts).
const RUNS = propertyRuns(10_000);

vi.hoisted(() => {
  process.env.RATE_LIMIT_DEV_PER_MINUTE = "1000000";
  process.env.RATE_LIMIT_PROD_PER_MINUTE = "1000000";
});

let keys: KeyFixtures;
beforeAll(async () => {
  keys = await makeKeyFixtures();
});

describe("the gate under generated input", () => {
  it("never answers 5xx, and never 2xx without a valid key", async () => {
    const validKeys = () => [keys.valid, keys.validProd, keys.rotatedInGrace];
    const keyValue = fc.oneof(
      fc.constantFrom(
        "valid",
        "validProd",
        "rotatedInGrace",
        "revoked",
        "expired",
        "rotatedAfterGrace",
        "unknown",
        "otherEnvironment",
        "badChecksum",
      ),
      fc.constant("fresh"),
      fc.string({ maxLength: 60 }),
      fc.string({ unit: "binary-ascii", maxLength: 60 }),
      fc.stringMatching(/^sk_(dev|prod|test)_[0-9A-Za-z]{0,45}$/),
    );
    const resolve = (value: string) =>
      value === "fresh"
        ? generateApiKey("prod")
        : Object.hasOwn(keys, value)
          ? String((keys as unknown as Record<string, string>)[value])
          : value;
    const headerForm = fc.constantFrom("bearer", "x-api-key", "both", "basic", "raw-authorization", "none");
    const request = fc.record({
      route: fc.constantFrom(...publicRoutes),
      method: fc.constantFrom("GET", "POST", "HEAD", "PUT", "DELETE", "OPTIONS"),
      form: headerForm,
      first: keyValue,
      second: keyValue,
      contentType: fc.constantFrom(
        "application/json",
        "text/plain",
        "multipart/form-data; boundary=x",
        "",
        "application/json; charset=utf-8",
      ),
      body: fc.oneof(fc.constant("{}"), fc.json(), fc.string({ maxLength: 200 })),
      query: fc.oneof(
        fc.constant(""),
        fc.constant("?limit=2"),
        fc.string({ maxLength: 30 }).map((s) => `?q=${encodeURIComponent(s)}`),
      ),
    });

    let sent = 0;
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const first = resolve(r.first);
        const second = resolve(r.second);
        const headers: Record<string, string> = {};
        const ascii = (s: string) => s.replace(/[^\x20-\x7e]/g, "");
        if (r.form === "bearer") headers.authorization = `Bearer ${ascii(first)}`;
        if (r.form === "x-api-key") headers["x-api-key"] = ascii(first);
        if (r.form === "both")
          Object.assign(headers, { authorization: `Bearer ${ascii(first)}`, "x-api-key": ascii(second) });
        if (r.form === "basic") headers.authorization = `Basic ${btoa(ascii(first))}`;
        if (r.form === "raw-authorization") headers.authorization = ascii(first);
        if (r.contentType) headers["content-type"] = r.contentType;
        const path =
          r.route.path.replace("[app]", "poster-studio").replace("[model]", "m-1.0").replace("[id]", "gen_1") + r.query;
        const result = await callApi(r.route, { method: r.method, headers, path, body: r.body });
        sent++;
        expect(result.status, `status ${result.status}`).toBeLessThan(500);
        if (result.status >= 200 && result.status < 300) {
          const presented = [headers.authorization?.replace(/^Bearer /, ""), headers["x-api-key"]].filter(Boolean);
          expect(presented.length).toBeGreaterThan(0);
          for (const key of presented) expect(validKeys()).toContain(key);
        }
      }),
      { numRuns: RUNS },
    );
    expect(sent).toBe(RUNS);
  }, 180_000);
});
