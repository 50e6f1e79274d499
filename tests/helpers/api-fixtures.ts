// Keys in every state the gate must tell apart, made through the real key
// lifecycle, and a way to call the public API's one entry point directly.
import { createAccount } from "@/lib/auth/accounts";
import { checksumOf, generateApiKey } from "@/lib/keys/format";
import { createKey, revokeKey, rotateKey } from "@/lib/keys/lifecycle";
import { handlePublicRequest } from "@/lib/public-api/app-gate";
import { publicRoutes, type PublicRoute } from "@/lib/public-api/routes";

export interface KeyFixtures {
  userId: string;
  valid: string;
  validProd: string;
  revoked: string;
  expired: string;
  rotatedInGrace: string;
  rotatedAfterGrace: string;
  unknown: string;
  otherEnvironment: string;
  badChecksum: string;
}

let counter = 0;

export async function makeKeyFixtures(): Promise<KeyFixtures> {
  const email = `api-${Date.now()}-${counter++}@example.com`;
  const user = await createAccount(email, "a long enough password");
  if (!user.ok) throw new Error(user.error);
  const actor = { userId: user.userId, ip: null, userAgent: null };
  const dev = (label: string, expiresAt: Date | null = null) =>
    createKey(actor, { label, environment: "dev", expiresAt });

  const valid = (await dev("valid")).secret;
  const validProd = (await createKey(actor, { label: "prod", environment: "prod", expiresAt: null })).secret;
  const revokedKey = await dev("revoked");
  await revokeKey(actor, revokedKey.key.id, null);
  const expired = (await dev("expired", new Date(Date.now() + 50))).secret;
  const inGrace = await dev("rotated, in grace");
  await rotateKey(actor, inGrace.key.id, "1h");
  const afterGrace = await dev("rotated, after grace");
  await rotateKey(actor, afterGrace.key.id, "now");
  await new Promise((resolve) => setTimeout(resolve, 60)); // let "expired" pass its expiry

  const created = await handlePublicRequest(
    new Request("http://localhost/api/v1/apps/poster-studio/generations", {
      method: "POST",
      headers: { authorization: `Bearer ${valid}`, "content-type": "application/json" },
      body: JSON.stringify({ prompt: "a fixture" }),
    }),
  );
  if (created.status !== 201) throw new Error(`fixture generation: ${created.status} ${await created.text()}`);
  fixtureGenerationId = ((await created.json()) as { id: string }).id;

  const unknown = generateApiKey("dev");
  const body = valid.slice(0, -6).replace("sk_dev_", "sk_prod_");
  const lastChar = valid.at(-1) === "A" ? "B" : "A";
  return {
    userId: user.userId,
    valid,
    validProd,
    revoked: revokedKey.secret,
    expired,
    rotatedInGrace: inGrace.secret,
    rotatedAfterGrace: afterGrace.secret,
    unknown,
    otherEnvironment: body + checksumOf(body),
    badChecksum: valid.slice(0, -1) + lastChar,
  };
}

/** A concrete URL for a route: its [params] filled with real catalog ids where they matter. */
export function concretePath(route: PublicRoute): string {
  return route.path
    .replace("[app]", "poster-studio")
    .replace("[model]", "keyport-sandbox-2.5-flash")
    .replace("[id]", fixtureGenerationId);
}

const VALID_JSON: Record<string, object> = {
  create_chat_completion: { model: "keyport-sandbox-mini", messages: [{ role: "user", content: "Hello" }] },
  create_message: { model: "keyport-sandbox-mini", max_tokens: 64, messages: [{ role: "user", content: "Hello" }] },
  generate_content: { contents: [{ role: "user", parts: [{ text: "Hello" }] }] },
  stream_generate_content: { contents: [{ role: "user", parts: [{ text: "Hello" }] }] },
  create_generation: { model: "aurora-image-2", prompt: "a red fox in the snow" },
  create_app_generation: { prompt: "a red fox in the snow" },
};

/** A generation of the fixtures' valid (dev) key, made through the API, for the GET routes. */
let fixtureGenerationId = "gen_000000000000000000000000";

/** A body the route accepts. */
export function wellFormedBody(route: PublicRoute): { body?: BodyInit; headers: Record<string, string> } {
  if (route.body === "json") {
    return { body: JSON.stringify(VALID_JSON[route.name] ?? {}), headers: { "content-type": "application/json" } };
  }
  if (route.body === "multipart") {
    const form = new FormData();
    form.set("file", new Blob(["hello"], { type: "text/plain" }), "hello.txt");
    return { body: form, headers: {} };
  }
  return { headers: {} };
}

export async function callApi(
  route: PublicRoute,
  options: { headers?: Record<string, string>; method?: string; path?: string; body?: BodyInit } = {},
) {
  const base = wellFormedBody(route);
  const method = options.method ?? route.method;
  const hasBody = method === "POST" || method === "PUT" || method === "PATCH";
  const request = new Request(`http://localhost${options.path ?? concretePath(route)}`, {
    method,
    headers: { ...base.headers, ...options.headers },
    body: hasBody ? (options.body ?? base.body) : undefined,
  });
  const response = await handlePublicRequest(request);
  const text = await response.text();
  let json: unknown = undefined;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  // Bodies are asserted field by field in the tests, so they stay loosely typed here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  return { status: response.status, headers: response.headers, json: json as Record<string, any>, text };
}

export { publicRoutes };
