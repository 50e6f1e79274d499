// The flood's requests, by category: each a function of a seeded random
// source, so a run can be repeated (scripts/odd-flood.mts runs them).
import { generateApiKey } from "../../lib/keys/format";
import { httpRequest } from "./raw-request.mjs";

export interface FloodContext {
  host: string;
  /** Server actions the pages name (sign-in's and sign-up's), read from the running server. */
  actionIds: string[];
  signUpActionId: string;
  /** A real key (FLOOD_API_KEY), so the API's handlers run too. */
  apiKey: string | undefined;
  seed: number;
}

export type Random = () => number;

/** mulberry32: small, fast, and the same sequence for the same seed. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

const pick = <T,>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
const int = (random: Random, max: number) => Math.floor(random() * max);
const bytes = (random: Random, length: number, exclude: number[] = []) => {
  const out = Buffer.alloc(length);
  for (let i = 0; i < length; i++) {
    let byte = int(random, 256);
    while (exclude.includes(byte)) byte = int(random, 256);
    out[i] = byte;
  }
  return out;
};
const hex = (random: Random, length: number) => bytes(random, length).toString("hex").slice(0, length);
const CRLF = [13, 10];

const BOUNDARY = "----FloodBoundary";
function multipart(fields: [string, string | Buffer][], boundary = BOUNDARY): Buffer {
  const parts = fields.map(([name, value]) =>
    Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n`, "latin1"),
      Buffer.isBuffer(value) ? value : Buffer.from(value, "utf8"),
      Buffer.from("\r\n"),
    ]),
  );
  return Buffer.concat([...parts, Buffer.from(`--${boundary}--\r\n`)]);
}
const multipartType = (boundary = BOUNDARY) => `multipart/form-data; boundary=${boundary}`;

/** A sign-up as the page's script posts it. */
export function signUpBody(email: string, actionId: string): Buffer {
  return multipart([
    ["_1_$ACTION_REF_1", ""],
    ["_1_$ACTION_1:0", JSON.stringify({ id: actionId, bound: "$@1" })],
    ["_1_$ACTION_1:1", "[null]"],
    ["_1_email", email],
    ["_1_password", "correct horse battery staple, flooded"],
    ["0", '[null,"$K1"]'],
  ]);
}

const PAGES = [
  "/",
  "/sign-in",
  "/sign-up",
  "/forgot-password",
  "/dashboard",
  "/account",
  "/docs",
  "/sign-up/confirm?token=x",
];

/** GET /_next/image with any address, size and quality. */
export function imageRequest(random: Random, context: FloodContext): Buffer {
  const url = pick(random, [
    "/dashboard",
    "/",
    "/favicon.svg",
    "/_next/image",
    "/api/v1/models",
    "https://example.com/a.png",
    "//evil.example/x",
    "%",
    `/${hex(random, 8)}`,
  ]);
  const width = pick(random, ["16", "64", "3840", "0", "-1", "x", ""]);
  const quality = pick(random, ["75", "0", "101", "q"]);
  return httpRequest("GET", `/_next/image?url=${encodeURIComponent(url)}&w=${width}&q=${quality}`, context.host);
}

/** A POST Next reads as a server action, with a body it cannot decode (or can, mutated a little). */
export function malformedActionRequest(random: Random, context: FloodContext): Buffer {
  const path = pick(random, PAGES);
  const id = random() < 0.7 ? pick(random, context.actionIds) : hex(random, 42);
  const email = `odd-${hex(random, 8)}@example.com`;
  const action: [string, string][] = [["Next-Action", id]];
  const tags = "$@KQWhTBnDRrXxiAOo-uIN0123456789abcdef:";
  switch (int(random, 8)) {
    case 0: // no field 0
      return httpRequest(
        "POST",
        path,
        context.host,
        [...action, ["Content-Type", multipartType()]],
        multipart([["1_email", email]]),
      );
    case 1: // not multipart at all
      return httpRequest(
        "POST",
        path,
        context.host,
        [...action, ["Content-Type", multipartType()]],
        bytes(random, int(random, 400)),
      );
    case 2: {
      // a real body with a few bytes changed, or cut short
      const body = signUpBody(email, id);
      for (let flips = 1 + int(random, 4); flips > 0; flips--) body[int(random, body.length)] = int(random, 256);
      const cut = random() < 0.3 ? body.subarray(0, int(random, body.length)) : body;
      return httpRequest("POST", path, context.host, [...action, ["Content-Type", multipartType()]], cut);
    }
    case 3: {
      // arguments with references of every tag, to fields that may not be there
      const reference = `$${pick(random, [...tags])}${hex(random, int(random, 3))}${random() < 0.3 ? `:${hex(random, 2)}` : ""}`;
      const root = JSON.stringify([null, reference, pick(random, ["$K1", "$0:1", "x"])]);
      const fields: [string, string][] = [["0", root]];
      if (random() < 0.5) fields.push([String(int(random, 3)), pick(random, ["{", "[]", '{"a":1}', `"${reference}"`])]);
      return httpRequest("POST", path, context.host, [...action, ["Content-Type", multipartType()]], multipart(fields));
    }
    case 4: // arguments as text, JSON or not
      return httpRequest(
        "POST",
        path,
        context.host,
        [...action, ["Content-Type", "text/plain;charset=UTF-8"]],
        pick(random, [
          "{",
          "12",
          '"x"',
          "[",
          "[null",
          '["$1"]',
          '["$@9"]',
          '["$nxyz"]',
          bytes(random, 64).toString("latin1"),
        ]),
      );
    case 5: {
      // a form posted without script, with bound arguments that may not decode
      const descriptor = pick(random, [
        JSON.stringify({ id, bound: "$@1" }),
        JSON.stringify({ id, bound: "$@9" }),
        `{"id":"${id}","id":5}`,
        "{",
        "",
      ]);
      const fields: [string, string][] = [
        ["$ACTION_REF_1", ""],
        ["$ACTION_1:0", descriptor],
        ["email", email],
      ];
      if (random() < 0.5) fields.push(["$ACTION_1:1", pick(random, ["[null]", "{", "[", "null"])]);
      return httpRequest("POST", path, context.host, [["Content-Type", multipartType()]], multipart(fields));
    }
    case 6: // a boundary the body does not use
      return httpRequest(
        "POST",
        path,
        context.host,
        [...action, ["Content-Type", multipartType("other")]],
        signUpBody(email, id),
      );
    default: // over Next's 1 MiB limit, now and then
      return random() < 0.1
        ? httpRequest(
            "POST",
            path,
            context.host,
            [...action, ["Content-Type", multipartType()]],
            multipart([["0", `["${"x".repeat(1_100_000)}"]`]]),
          )
        : httpRequest("POST", path, context.host, [["Content-Type", multipartType()]], bytes(random, int(random, 200)));
  }
}

const API_PATHS = [
  "/api/v1/models",
  "/api/v1/files",
  "/api/v1/apps/poster-studio/generations",
  "/api/v1/chat/completions",
  "/api/v1/messages",
  "/api/v1beta/models/keyport-sandbox-2.5-flash:generateContent",
  "/api/v1/generations/gen_x",
];

/** The public API with a real key, a well-formed unknown one, or none; any method and body. */
export function apiRequest(random: Random, context: FloodContext): Buffer {
  const key =
    context.apiKey && random() < 0.5
      ? context.apiKey
      : random() < 0.8
        ? generateApiKey(pick(random, ["dev", "prod"]))
        : hex(random, 20);
  const method = pick(random, ["GET", "GET", "POST", "POST", "DELETE", "PUT", "HEAD"]);
  const headers: [string, string][] = [["Authorization", `Bearer ${key}`]];
  let body: Buffer | string = "";
  if (method === "POST") {
    const json = random() < 0.7;
    headers.push(["Content-Type", json ? "application/json" : multipartType()]);
    body = json
      ? pick(random, [
          JSON.stringify({ prompt: "flood" }),
          JSON.stringify({ model: "keyport-sandbox-mini", messages: [{ role: "user", content: "hi" }] }),
          "{",
          bytes(random, 50),
        ])
      : multipart([
          ["purpose", "flood"],
          ["file", bytes(random, int(random, 300))],
        ]);
  }
  return httpRequest(method, pick(random, API_PATHS), context.host, headers, body);
}

/** A page that reads the database for its session, with a cookie that names none. */
export function sessionPageRequest(random: Random, context: FloodContext): Buffer {
  const path = pick(random, ["/dashboard", "/account", "/dashboard/keys", "/dashboard/activity", "/sign-in"]);
  return httpRequest("GET", path, context.host, [["Cookie", `keyport.session=${hex(random, 40)}`]]);
}

/** Random bytes in the method, the path, the headers, or a multipart body. */
export function randomBytesRequest(random: Random, context: FloodContext): Buffer {
  const head = (
    method: Buffer | string,
    target: Buffer | string,
    extra: Buffer[] = [],
    body: Buffer = Buffer.alloc(0),
    type?: string,
  ) =>
    Buffer.concat([
      Buffer.isBuffer(method) ? method : Buffer.from(method),
      Buffer.from(" "),
      Buffer.isBuffer(target) ? target : Buffer.from(target),
      Buffer.from(` HTTP/1.1\r\nHost: ${context.host}\r\nConnection: close\r\n`),
      ...extra.map((line) => Buffer.concat([line, Buffer.from("\r\n")])),
      Buffer.from(type ? `Content-Type: ${type}\r\n` : ""),
      Buffer.from(body.length > 0 ? `Content-Length: ${body.length}\r\n` : ""),
      Buffer.from("\r\n"),
      body,
    ]);
  const path = pick(random, PAGES);
  switch (int(random, 4)) {
    case 0:
      return head(bytes(random, 1 + int(random, 8), [32, ...CRLF]), path);
    case 1:
      return head(
        "GET",
        Buffer.concat([
          Buffer.from(pick(random, ["/", "/api/v1/", "/dashboard/", "/_next/"])),
          bytes(random, int(random, 40), [32, ...CRLF]),
        ]),
      );
    case 2: {
      const lines = Array.from({ length: 1 + int(random, 4) }, () =>
        Buffer.concat([
          bytes(random, 1 + int(random, 12), [58, ...CRLF]),
          Buffer.from(": "),
          bytes(random, int(random, 60), CRLF),
        ]),
      );
      return head(pick(random, ["GET", "POST"]), path, lines);
    }
    default: {
      const boundary = random() < 0.5 ? BOUNDARY : hex(random, 10);
      const fields: [string, Buffer][] = [
        ["0", bytes(random, int(random, 80))],
        [hex(random, 4), bytes(random, int(random, 200))],
      ];
      const extra = random() < 0.6 ? [Buffer.from(`Next-Action: ${pick(random, context.actionIds)}`)] : [];
      return head("POST", path, extra, multipart(fields, boundary), multipartType(boundary));
    }
  }
}
