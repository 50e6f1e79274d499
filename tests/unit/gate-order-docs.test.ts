// The gate's order is stated once (lib/public-api/gate-order.ts): the table in
// docs/public-api.md is written from it, and it names every code the gate
// itself answers with.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { GATE_ORDER } from "@/lib/public-api/gate-order";
import { publicRoutes, routeErrors, type PublicRoute } from "@/lib/public-api/routes";
import { ORDER_END, ORDER_START, PUBLIC_API_DOC, withOrder } from "../../scripts/gate-order-docs.mjs";

describe("the gate's order", () => {
  it("is the table docs/public-api.md holds (npm run docs:gate writes it)", async () => {
    const document = readFileSync(PUBLIC_API_DOC, "utf8");
    expect(document).toContain(ORDER_START);
    expect(document).toContain(ORDER_END);
    expect(await withOrder(document)).toBe(document);
    // A control: a step changed in the source would change the file.
    const table = document.slice(document.indexOf(ORDER_START), document.indexOf(ORDER_END));
    expect(table).toContain(GATE_ORDER[8]!.check);
    expect(table.match(/^\| \d+ /gm)).toHaveLength(GATE_ORDER.length);
  });

  it("names every code the gate answers with before a handler runs (outages and bugs aside)", () => {
    const handlerCodes = new Set((publicRoutes as readonly PublicRoute[]).flatMap((route) => route.errors ?? []));
    const gateCodes = new Set(
      (publicRoutes as readonly PublicRoute[])
        .flatMap((route) => routeErrors(route))
        .filter((code) => !handlerCodes.has(code) && code !== "internal_error" && code !== "service_unavailable"),
    );
    const stated = new Set(GATE_ORDER.flatMap((step) => step.codes));
    expect([...gateCodes].filter((code) => !stated.has(code))).toEqual([]);
    expect(stated.has("not_found")).toBe(true);
  });
});
