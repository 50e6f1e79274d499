// proxy.ts refuses a server-action body Next and React could not decode (they
// would answer 500): each refusal below is a body that failed inside Next
// before; each acceptance is a shape the app's own forms send (the first ones
// copied from Chromium's posts to the production build).
import { describe, expect, it } from "vitest";
import { ACTION_BODY_LIMIT_BYTES, screenActionBody } from "@/lib/security/action-body";

const ID = "606ddbc39af04cb11ace999622bca4a39baf7bde3c";
const BOUNDARY = "----WebKitFormBoundaryXB6fJ9f8IXxAPhoe";

function multipart(fields: [string, string][], extra = ""): string {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join("")}${extra}--${BOUNDARY}--\r\n`;
}

async function verdict(body: string, { action = true, multipartBody = true } = {}) {
  const headers: Record<string, string> = {
    "content-type": multipartBody ? `multipart/form-data; boundary=${BOUNDARY}` : "text/plain;charset=UTF-8",
  };
  if (action) headers["next-action"] = ID;
  const answer = await screenActionBody(new Request("http://localhost/sign-in", { method: "POST", headers, body }));
  return answer.ok ? "accepted" : answer.status;
}

const SIGN_UP_BY_SCRIPT: [string, string][] = [
  ["_1_$ACTION_REF_1", ""],
  ["_1_$ACTION_1:0", `{"id":"${ID}","bound":"$@1"}`],
  ["_1_$ACTION_1:1", "[null]"],
  ["_1_email", "someone@example.com"],
  ["_1_password", "correct horse battery staple"],
];
const SIGN_UP_WITHOUT_SCRIPT: [string, string][] = [
  ["$ACTION_REF_1", ""],
  ["$ACTION_1:0", `{"id":"${ID}","bound":"$@1"}`],
  ["$ACTION_1:1", "[null]"],
  ["$ACTION_KEY", "k15b862c17e9cee3fc850d3f229815804"],
  ["email", "someone@example.com"],
];

describe("screenActionBody accepts what the app's forms send", () => {
  it("a form posted by the page's script, first and later submissions", async () => {
    expect(await verdict(multipart([...SIGN_UP_BY_SCRIPT, ["0", '[null,"$K1"]']]))).toBe("accepted");
    const previous = JSON.stringify({ ok: false, error: "Check it", fieldErrors: { email: ["Bad"] }, values: {} });
    expect(await verdict(multipart([...SIGN_UP_BY_SCRIPT, ["0", `[${previous},"$K1"]`]]))).toBe("accepted");
    // A value met twice is sent once and referred to by its path; escapes and JSON's missing values.
    const special = '[{"a":{"x":1},"b":"$0:0:a"},"$$money","$undefined","$D2026-11-26T00:00:00.000Z","$n12","$-0"]';
    expect(await verdict(multipart([["0", special]]))).toBe("accepted");
  });

  it("an action called with plain arguments, as text", async () => {
    for (const body of ["[]", '["key_abc123"]', '[{"keyId":"key_abc","label":"$$x"}]']) {
      expect(await verdict(body, { multipartBody: false }), body).toBe("accepted");
    }
  });

  it("a form posted without script, and a plain multipart post to a page", async () => {
    expect(await verdict(multipart(SIGN_UP_WITHOUT_SCRIPT), { action: false })).toBe("accepted");
    expect(await verdict(multipart([["note", "hello"]]), { action: false })).toBe("accepted");
  });

  it("any request that is no server action, unread", async () => {
    const get = await screenActionBody(new Request("http://localhost/sign-in"));
    const form = await screenActionBody(
      new Request("http://localhost/api/auth/signout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: "%%%",
      }),
    );
    expect([get.ok, form.ok]).toEqual([true, true]);
  });
});

describe("screenActionBody refuses what Next would fail on", () => {
  it("a multipart body without field 0, or one that is not multipart at all", async () => {
    expect(await verdict(multipart(SIGN_UP_BY_SCRIPT))).toBe(400);
    expect(await verdict("garbage!!")).toBe(400);
    expect(await verdict("garbage!!", { action: false })).toBe(400);
    const noBoundary = await screenActionBody(
      new Request("http://localhost/sign-in", {
        method: "POST",
        headers: { "content-type": "multipart/form-data", "next-action": ID },
        body: "x",
      }),
    );
    expect(noBoundary).toEqual({ ok: false, status: 400 });
  });

  it("arguments that are not a JSON array", async () => {
    for (const body of ["{", '"x"', "12", ""]) expect(await verdict(body, { multipartBody: false }), body).toBe(400);
    expect(await verdict(multipart([["0", "[nul"]]))).toBe(400);
  });

  it("a reference React cannot follow, or a kind of value no form of ours sends", async () => {
    for (const root of ['["$1"]', '["$@5"]', '["$Q1"]', '["$h1"]', '["$B1"]', '["$nabc"]', '["$"]', '["$0:9:x"]']) {
      expect(await verdict(multipart([["0", root]])), root).toBe(400);
    }
    // A referenced field must itself decode, and come before field 0 (React reads field 0 as it arrives).
    const fields = (...pairs: [string, string][]) => verdict(multipart(pairs));
    expect(await fields(["1", "{"], ["0", '["$1"]'])).toBe(400);
    expect(await fields(["1", '{"a":1}'], ["0", '["$1","$@1","$1:a"]'])).toBe("accepted");
    expect(await fields(["0", '["$1"]'], ["1", '{"a":1}'])).toBe(400);
  });

  it("parts React cannot take as they arrive: one without a name, a second one for the same chunk", async () => {
    const unnamed = `--${BOUNDARY}\r\nContent-Disposition: form-data; nme="1_email"\r\n\r\nx\r\n`;
    expect(await verdict(multipart([["0", '[null,"$K1"]']], unnamed))).toBe(400);
    for (const twin of ["0", "00", "", " ", "S0"]) {
      expect(
        await verdict(
          multipart([
            ["0", "[]"],
            [twin, "[]"],
          ]),
        ),
        JSON.stringify(twin),
      ).toBe(400);
    }
  });

  it("a form posted without script whose bound arguments cannot be decoded", async () => {
    const without = (name: string) => SIGN_UP_WITHOUT_SCRIPT.filter(([field]) => field !== name);
    expect(await verdict(multipart(without("$ACTION_1:0")), { action: false })).toBe(400);
    expect(await verdict(multipart(without("$ACTION_1:1")), { action: false })).toBe(400);
    const numericId = without("$ACTION_1:0").concat([["$ACTION_1:0", '{"id":"x","id":5,"bound":null}']]);
    expect(await verdict(multipart(numericId), { action: false })).toBe(400);
    // Bound arguments that settle to something React cannot spread.
    const notAnArray = without("$ACTION_1:1").concat([["$ACTION_1:1", "null"]]);
    expect(await verdict(multipart(notAnArray), { action: false })).toBe(400);
  });

  it("a file part in base64, which React refuses", async () => {
    const file = `--${BOUNDARY}\r\nContent-Disposition: form-data; name="1_f"; filename="a.txt"\r\nContent-Transfer-Encoding: base64\r\n\r\naGk=\r\n`;
    expect(await verdict(multipart([["0", '["$K1"]']], file))).toBe(400);
  });

  it("a body over Next's limit: 413", async () => {
    const large = multipart([["0", JSON.stringify(["x".repeat(ACTION_BODY_LIMIT_BYTES)])]]);
    expect(await verdict(large)).toBe(413);
  });
});
