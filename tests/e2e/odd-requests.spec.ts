// Requests that never reach our code, through the real server.mjs: none may
// answer 5xx. Sent with node:http so the path goes out exactly as written.
import { request as httpRequest } from "node:http";
import Database from "better-sqlite3";
import { expect, test } from "@playwright/test";
import { generateApiKey } from "../../lib/keys/format";
import { likeStored } from "./e2e-database";
import { createKey, PASSWORD, signUp, uniqueEmail } from "./helpers";
import { startOwnServer } from "./own-server";

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function raw(baseURL: string, method: string, path: string, headers: Record<string, string> = {}, body?: string) {
  const { hostname, port } = new URL(baseURL);
  return new Promise<Raw>((resolve, reject) => {
    const req = httpRequest({ hostname, port, method, path, headers }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (chunk) => (text += chunk));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
    });
    req.on("error", reject);
    // A request the server holds open without answering fails here, not at the test's timeout.
    req.setTimeout(10_000, () => req.destroy(new Error(`${method} ${path}: no answer in 10 s`)));
    req.end(body);
  });
}

test("a request with an Upgrade header is screened and answered like any other, also after Next served a page", async ({
  baseURL,
}) => {
  // Next adds its own 'upgrade' listener on the first request it serves: one has been served.
  expect((await raw(baseURL!, "GET", "/")).status).toBe(200);
  const websocket = { Connection: "Upgrade", Upgrade: "websocket" };
  const api = await raw(baseURL!, "GET", "/api/v1/models", websocket);
  expect(api.status).toBe(401);
  expect(JSON.parse(api.body).error.code).toBe("missing_api_key");
  const withKey = await raw(baseURL!, "GET", "/api/v1/models", {
    ...websocket,
    Authorization: `Bearer ${generateApiKey("dev")}`,
  });
  expect(JSON.parse(withKey.body).error.code).toBe("invalid_api_key");
  // curl --http2's offer of h2c is ignored: the answer is HTTP/1.1, from the gate.
  const h2c = { Connection: "Upgrade, HTTP2-Settings", Upgrade: "h2c", "HTTP2-Settings": "AAMAAABkAARAAAAAAAIAAAAA" };
  expect((await raw(baseURL!, "GET", "/api/v1/models", h2c)).status).toBe(401);
  // The screen still answers odd requests, and the wall still refuses a key off the API.
  expect((await raw(baseURL!, "TRACE", "/dashboard", websocket)).status).toBe(405);
  expect((await raw(baseURL!, "GET", "/%zz", websocket)).status).toBe(400);
  const keyOnPage = await raw(baseURL!, "GET", "/docs", {
    ...websocket,
    Authorization: `Bearer ${generateApiKey("dev")}`,
  });
  expect(keyOnPage.status).toBe(403);
});

test("a malformed percent escape: the gate's 404 under /api/v1, a 400 page elsewhere", async ({ baseURL }) => {
  for (const path of ["/api/v1/generations/%E0%A4%A", "/api/v1/%", "/api/v1beta/models/%zz"]) {
    const answer = await raw(baseURL!, "GET", path);
    expect(answer.status, path).toBe(404);
    expect(answer.headers["content-type"]).toMatch(/^application\/json/);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: "not_found" });
    expect(answer.headers["x-request-id"]).toMatch(/^req_/);
  }
  for (const path of ["/api/auth/%", "/docs/routes/%", "/%E0%A4%A"]) {
    const answer = await raw(baseURL!, "GET", path);
    expect(answer.status, path).toBe(400);
    expect(answer.headers["content-type"]).toMatch(/^text\/html/);
    expect(answer.body).toContain("Bad request");
  }
});

test("a request target that is not a path is 400, and dot segments are resolved before anything else", async ({
  baseURL,
}) => {
  for (const method of ["GET", "OPTIONS"]) expect((await raw(baseURL!, method, "*")).status).toBe(400);
  const sneaky = await raw(baseURL!, "TRACE", "/x/%2e%2e/api/v1/models");
  expect(sneaky.status).toBe(405);
  expect(sneaky.headers.allow).toBe("GET, HEAD");
});

test("TRACE: 405 with Allow on a known API path, 404 on an unknown one, 405 elsewhere", async ({ baseURL }) => {
  const known = await raw(baseURL!, "TRACE", "/api/v1/models");
  expect(known.status).toBe(405);
  expect(known.headers.allow).toBe("GET, HEAD");
  expect(JSON.parse(known.body).error.code).toBe("method_not_allowed");
  const unknown = await raw(baseURL!, "TRACE", "/api/v1/nothing-here");
  expect(unknown.status).toBe(404);
  expect(JSON.parse(unknown.body).error.code).toBe("not_found");
  for (const path of ["/", "/account", "/api/auth/session"]) {
    expect((await raw(baseURL!, "TRACE", path)).status, path).toBe(405);
  }
});

test("an unparseable callbackUrl on next-auth's endpoints is normalised, never a 500", async ({ baseURL }) => {
  const csrf = await raw(baseURL!, "GET", "/api/auth/csrf");
  const cookie = ([] as string[])
    .concat(csrf.headers["set-cookie"] ?? [])
    .map((c) => c.split(";")[0])
    .join("; ");
  const token = JSON.parse(csrf.body).csrfToken as string;
  for (const callbackUrl of ["http://x:99999", "http://127.0.0.1:3917.evil.example", "https://evil.example/"]) {
    for (const endpoint of ["/api/auth/callback/credentials", "/api/auth/signout"]) {
      const form = new URLSearchParams({
        csrfToken: token,
        callbackUrl,
        email: "a@example.com",
        password: "x".repeat(12),
      });
      const answer = await raw(
        baseURL!,
        "POST",
        endpoint,
        { "content-type": "application/x-www-form-urlencoded", cookie },
        form.toString(),
      );
      expect(answer.status, `${endpoint} ${callbackUrl}`).toBeLessThan(500);
      expect(String(answer.headers.location ?? "")).not.toContain("evil.example");
    }
  }
  // A body next-auth cannot parse: refused before it looks.
  for (const endpoint of ["/api/auth/session", "/api/auth/signout"]) {
    const json = await raw(baseURL!, "POST", endpoint, { "content-type": "application/json", cookie }, "{");
    expect(json.status, endpoint).toBe(415);
  }
  const viaCookie = await raw(baseURL!, "GET", "/api/auth/session", {
    cookie: `keyport.callback-url=${encodeURIComponent("http://x:99999")}`,
  });
  expect(viaCookie.status).toBe(200);
});

test("a cross-origin server action is refused with 403, a forged X-Forwarded-Host changes nothing", async ({
  page,
  baseURL,
}) => {
  await signUp(page, uniqueEmail("csrf"));
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  const actionId = await page.evaluate(async () => {
    const scripts = [...document.querySelectorAll("script")].map((s) => s.textContent ?? "").join("\n");
    return /"id":"([0-9a-f]{40,})"/.exec(scripts)?.[1] ?? null;
  });
  const id = actionId ?? "0".repeat(42);
  const crossOrigin: Record<string, string>[] = [
    { origin: "http://evil.example" },
    { origin: "http://evil.example", "x-forwarded-host": "evil.example" },
    { origin: "null" },
    // The deployment's host with another scheme or port: the screens before proxy.ts compared hosts only.
    { origin: baseURL!.replace(/^http:/, "https:") },
    { origin: `HTTP://localhost:${Number(new URL(baseURL!).port) + 1}` },
  ];
  // A plain form post from another site is refused the same way (Next reads it as an action too).
  const form = await raw(
    baseURL!,
    "POST",
    "/sign-in",
    { origin: "https://evil.example", "content-type": "application/x-www-form-urlencoded" },
    "a=b",
  );
  expect(form.status).toBe(403);
  for (const headers of crossOrigin) {
    const answer = await raw(
      baseURL!,
      "POST",
      "/dashboard",
      { ...headers, cookie, "next-action": id, "content-type": "text/plain;charset=UTF-8" },
      "[]",
    );
    expect(answer.status, JSON.stringify(headers)).toBe(403);
  }
});

test("a key in any credential header is refused on an internal page, even beside a session cookie", async ({
  page,
  baseURL,
}) => {
  await signUp(page, uniqueEmail("byvalue"));
  const cookie = (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
  expect((await raw(baseURL!, "GET", "/account", { cookie })).status).toBe(200);
  const key = generateApiKey("dev");
  const forms: Record<string, Record<string, string>> = {
    "Basic key:": { authorization: `Basic ${btoa(`${key}:`)}` },
    "Token key": { authorization: `Token ${key}` },
    "a bare key": { authorization: key },
    "Bearerx key": { authorization: `Bearerx ${key}` },
    "Proxy-Authorization: Bearer": { "proxy-authorization": `Bearer ${key}` },
  };
  for (const [name, headers] of Object.entries(forms)) {
    const answer = await raw(baseURL!, "GET", "/account", { ...headers, cookie });
    expect(answer.status, name).toBe(403);
    expect(JSON.parse(answer.body).error.code, name).toBe("api_key_not_allowed");
  }
  // Node keeps only the first of two Authorization headers: a key in the second is refused before that.
  for (const name of ["authorization", "proxy-authorization"]) {
    const twice = { [name]: ["Basic dTpw", `Bearer ${key}`], cookie } as unknown as Record<string, string>;
    expect((await raw(baseURL!, "GET", "/account", twice)).status, name).toBe(400);
  }
});

test("the image optimizer is off: /_next/image answers 404 for any address, never 500", async ({ baseURL }) => {
  for (const url of ["%2Fdashboard", "%2Ffavicon.svg", "%2F_next%2Fimage", "https%3A%2F%2Fexample.com%2Fa.png"]) {
    const answer = await raw(baseURL!, "GET", `/_next/image?url=${url}&w=64&q=75`);
    expect(answer.status, url).toBe(404);
    expect(answer.body, url).toContain("Page not found");
  }
});

/** The sign-in form's server action, as the page names it to a browser without script. */
async function signInActionId(baseURL: string): Promise<string> {
  const page = await raw(baseURL, "GET", "/sign-in");
  const id = /name="\$ACTION_1:0" value="\{&quot;id&quot;:&quot;([0-9a-f]{40,})&quot;/.exec(page.body)?.[1];
  expect(id, "the sign-in form names its action").toBeDefined();
  return id!;
}

const BOUNDARY = "----KeyportOddBoundary7MA4YWxkTrZu0gW";
const multipartHeaders = { "content-type": `multipart/form-data; boundary=${BOUNDARY}` };
function multipart(fields: [string, string][]): string {
  const parts = fields.map(
    ([name, value]) => `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
  );
  return `${parts.join("")}--${BOUNDARY}--\r\n`;
}

test("a server action whose body cannot be read is 400 with a small page; a well-formed one is still answered", async ({
  baseURL,
}) => {
  const id = await signInActionId(baseURL!);
  const action = { "next-action": id, origin: baseURL! };
  const emailOnly = multipart([["1_email", "someone@example.com"]]);
  const refused: [string, Record<string, string>, string][] = [
    ["a multipart body lacking field 0", { ...action, ...multipartHeaders }, emailOnly],
    ["a garbage multipart body", { ...action, ...multipartHeaders }, "garbage!!"],
    ["a garbage multipart body posted as a form", { origin: baseURL!, ...multipartHeaders }, "garbage!!"],
    ["arguments that are not JSON", { ...action, "content-type": "text/plain;charset=UTF-8" }, "{"],
    ["a reference to a field that is not there", { ...action, ...multipartHeaders }, multipart([["0", '["$1"]']])],
  ];
  for (const [name, headers, body] of refused) {
    const answer = await raw(baseURL!, "POST", "/sign-in", headers, body);
    expect(answer.status, name).toBe(400);
    expect(answer.headers["content-type"], name).toMatch(/^text\/html/);
    expect(answer.body, name).toContain("This form's data could not be read.");
  }
  const tooLarge = multipart([["0", JSON.stringify(["x".repeat(1024 * 1024)])]]);
  const large = await raw(baseURL!, "POST", "/sign-in", { ...action, ...multipartHeaders }, tooLarge);
  expect(large.status).toBe(413);
  expect(large.body).toContain("Form too large");

  // The same action, sent as the page's script sends it: the form's own answer (no email given).
  const wellFormed = multipart([
    ["1_email", ""],
    ["1_password", ""],
    ["0", '[null,"$K1"]'],
  ]);
  const answered = await raw(baseURL!, "POST", "/sign-in", { ...action, ...multipartHeaders }, wellFormed);
  expect(answered.status).toBe(200);
  expect(answered.headers["content-type"]).toMatch(/^text\/x-component/);
  expect(answered.body).toContain("Enter your email address.");
});

/** Makes every session in `database` look last seen `ms` ago. */
function ageLastSeen(database: Database.Database, ms: number) {
  const sample = database.prepare(`SELECT "lastSeenAt" AS "value" FROM "Session" LIMIT 1`).get() as {
    value: string | number;
  };
  database.prepare(`UPDATE "Session" SET "lastSeenAt" = ?`).run(likeStored(sample.value, Date.now() - ms));
}

test("a database too busy to answer in time: a form says so and keeps what was typed, a page and the public API answer 503", async ({
  page,
  browser,
}) => {
  test.setTimeout(120_000);
  // A server of its own, whose database this test locks: the shared one's other tests would wait too.
  const server = await startOwnServer(3234, { DATABASE_TIMEOUT_MS: "300" });
  try {
    await signUp(page, uniqueEmail("busy"), PASSWORD, server.baseUrl, server.outbox);
    const secret = await createKey(page, "busy");
    const scripted = uniqueEmail("busy-second");
    await page.goto(`${server.baseUrl}/sign-up`);
    await page.getByLabel("Email").fill(scripted);
    await page.getByLabel("Password").fill(PASSWORD);
    const withoutScript = await browser.newContext({ javaScriptEnabled: false });
    const plain = await withoutScript.newPage();
    const plainEmail = uniqueEmail("busy-third");
    await plain.goto(`${server.baseUrl}/sign-up`);
    await plain.getByLabel("Email").fill(plainEmail);
    await plain.getByLabel("Password").fill(PASSWORD);

    const holder = new Database(server.databaseFile);
    // The signed-in session last seen two minutes ago: its next page records activity, a write.
    ageLastSeen(holder, 2 * 60_000);
    // Another process holds SQLite's one write lock past DATABASE_TIMEOUT_MS.
    holder.exec("BEGIN IMMEDIATE");
    try {
      // Without script, the browser posts the form and gets the page again: the error, the email (never the password).
      const [answer] = await Promise.all([
        plain.waitForResponse((response) => response.request().method() === "POST"),
        plain.getByRole("button", { name: "Create account" }).click(),
      ]);
      expect(answer.status()).toBe(200);
      await expect(plain.locator("form").getByRole("alert")).toHaveText(
        /^Keyport is busy right now and could not finish this\. Try again in a few seconds\.$/,
      );
      await expect(plain.getByLabel("Email")).toHaveValue(plainEmail);
      await expect(plain.getByLabel("Password")).toHaveValue("");

      // With script, the same error, and the form as it was typed, password too (it stayed in the browser).
      await page.getByRole("button", { name: "Create account" }).click();
      await expect(page.locator("form").getByRole("alert")).toHaveText(
        /^Keyport is busy right now and could not finish this\. Try again in a few seconds\.$/,
      );
      await expect(page.getByLabel("Email")).toHaveValue(scripted);
      await expect(page.getByLabel("Password")).toHaveValue(PASSWORD);

      // A page that cannot be drawn without the database: the server's busy page.
      const dashboard = await page.request.get(`${server.baseUrl}/dashboard`, { maxRedirects: 0 });
      expect(dashboard.status()).toBe(503);
      expect(dashboard.headers()["retry-after"]).toBe("5");
      expect(await dashboard.text()).toContain("Keyport is busy");

      // The public API says the same in its own shape.
      const api = await fetch(`${server.baseUrl}/api/v1/apps/poster-studio/generations`, {
        method: "POST",
        headers: { authorization: `Bearer ${secret}`, "content-type": "application/json" },
        body: JSON.stringify({ prompt: "a lighthouse at dusk" }),
      });
      expect(api.status).toBe(503);
      expect(api.headers.get("retry-after")).toBe("5");
      expect((await api.json()).error.code).toBe("service_unavailable");
    } finally {
      holder.exec("ROLLBACK");
      await withoutScript.close();
    }
    try {
      // Nothing was written for either form: no pending sign-up, no mail.
      const written = holder
        .prepare(
          `SELECT (SELECT COUNT(*) FROM "PendingSignUp" WHERE "email" IN (?, ?)) +
                  (SELECT COUNT(*) FROM "MailMessage" WHERE "recipient" IN (?, ?)) AS "n"`,
        )
        .get(scripted, plainEmail, scripted, plainEmail) as { n: number };
      expect(written.n).toBe(0);
    } finally {
      holder.close();
    }
    // Once the database is free, the same form goes through as it stands: nothing to type again.
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page).toHaveURL(/\/sign-up\/check-inbox$/);
  } finally {
    await server.stop();
  }
});
