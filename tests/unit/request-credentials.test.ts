import { describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { maxHeaderSize } from "node:http";
import { carriesApiKey, holdsKeyShapedToken, MAX_READ, READING_BUDGET } from "@/lib/auth/api-key-headers";
import { someReading } from "@/lib/keys/key-readings";
import { generateApiKey } from "@/lib/keys/format";
import { clientIp, PEER_IP_HEADER } from "@/lib/auth/client-ip";

// Generated, never a key-shaped literal in the repo.
const KEY = generateApiKey("dev");

/** An unsigned JWT whose payload holds `value` (its header is 35 characters: the payload is off the whole's grid). */
function jwtHolding(value: string) {
  const part = (json: object) => Buffer.from(JSON.stringify(json)).toString("base64url");
  return `${part({ alg: "none", typ: "JWT" })}.${part({ sub: value, iat: 1_790_000_000 })}.${"A".repeat(43)}`;
}

describe("carriesApiKey", () => {
  it.each([
    [{ authorization: `Basic ${btoa(`${KEY}:`)}` }],
    [{ authorization: `basic ${btoa(`user:${KEY}`)}` }],
    [{ authorization: `Token ${KEY}` }],
    [{ authorization: KEY }],
    [{ authorization: `Bearerx ${KEY}` }],
    [{ authorization: `Token ${encodeURIComponent(KEY).replace("_", "%5F")}` }],
    [{ "proxy-authorization": `Bearer ${KEY}` }],
    [{ "proxy-authorization": `Basic ${btoa(`${KEY}:`)}` }],
    // Readings a lenient decoder would give (found by attacking the wall).
    [{ authorization: `Basic ${btoa(`u:${KEY}`)}==` }],
    [{ authorization: `Basic ${btoa(`u:${KEY}`).slice(0, 8)} ${btoa(`u:${KEY}`).slice(8)}` }],
    [{ authorization: `Basic realm ${btoa(`u:${KEY}`)}` }],
    [{ authorization: `Token ${KEY.replace(/_/g, "%5F")} %` }],
    [{ "proxy-authorization": `Digest username=${KEY.replace(/_/g, "%5F")}, x=%` }],
    [{ authorization: `Token ${encodeURIComponent(encodeURIComponent(KEY.replace(/_/g, "%5F")))}` }],
    [{ authorization: `Basic ${btoa(KEY.replace(/_/g, "%5F"))}` }],
    [{ authorization: `Basic ${btoa(btoa(`${KEY}:`))}` }],
    [{ authorization: `Basic ${Buffer.from(`${KEY}:`, "utf16le").toString("base64")}` }],
    [{ authorization: `Basic ${Buffer.from(`${KEY}:`).toString("base64url")}` }],
    [{ x_api_key: KEY }],
    [{ "api-key": KEY }],
    // Any header named for a credential, not only the two forms the API reads.
    [{ "x-auth-token": KEY }],
    [{ "x-access-token": `Token ${btoa(KEY)}` }],
    [{ "api-secret": KEY }],
    // Named for a key in other words, and encodings a decoder would undo (found by attacking the wall).
    [{ "x-key": KEY }],
    [{ key: KEY }],
    [{ "x-access-key": KEY }],
    [{ "private-key": `Token ${btoa(KEY)}` }],
    [{ "x-client-key": KEY }],
    [{ "x-password": KEY }],
    [{ authorization: `Bearer ${jwtHolding(KEY)}`.replace("Bearer", "JWT") }],
    [{ authorization: `Token ${Buffer.from(KEY).toString("hex")}` }],
    [{ authorization: `Token x${Buffer.from(KEY).toString("hex").toUpperCase()}` }],
    [{ authorization: `Token ${KEY.replace(/^s/, "\\u0073")}` }],
    [{ authorization: `Token ${KEY.replace(/^s/, "\\x73")}` }],
    [{ authorization: `Token ${KEY.replace(/^s/, "&#115;").replace(/_/g, "&lowbar;")}` }],
    [{ authorization: `Token ${KEY.replace(/^s/, "&#x73;")}` }],
    // base64 off the 4-character grid: glued to other base64, or after a prefix of 1 or 2 bytes.
    [{ authorization: `Basic QUJD${btoa(`u:${KEY}`)}`.replace("QUJD", "Q") }],
    [{ authorization: `Basic ${btoa(`ab${KEY}`)}` }],
    [{ authorization: `Basic ${btoa(`a${KEY}`)}` }],
    // Second round of the attack review: encodings inside encodings, and names the list of credential names missed.
    [{ "x-auth-token": Buffer.from(btoa(KEY)).toString("hex") }],
    [{ "x-auth-token": Buffer.from(encodeURIComponent(KEY).replace(/_/g, "%5F")).toString("hex").toUpperCase() }],
    [{ "x-auth-token": Buffer.from(KEY, "utf16le").toString("hex") }],
    [{ "x-auth-token": Buffer.from(KEY, "utf16le").swap16().toString("hex") }],
    [{ "x-auth-token": `A${Buffer.from(KEY, "utf16le").toString("base64")}` }],
    [{ "x-auth-token": `Q${btoa(KEY.replace(/_/g, "%5F"))}` }],
    [{ "x-auth-token": `Zm${btoa(Buffer.from(KEY).toString("hex"))}` }],
    [{ "x-auth-token": KEY.replace(/_/g, "%u005F") }],
    [{ "x-auth-token": KEY.replace(/_/g, "=5F") }],
    ...["x-pass", "x-pwd", "x-creds", "x-api", "x-sk", "x-access", "x-bearer", "x-session", "x-signature"].map(
      (name) => [{ [name]: KEY }],
    ),
    // Third look: a key as a header's name, and hex in colon-separated pairs.
    [{ [`x-${KEY}`]: "1" }],
    // The re-check after it: hex pairs by commas, 0x hex, a key among soft hyphens. (Base64 in a header's name is
    // lowercased on the way in, which leaves nothing that decodes to a key.)
    [{ "x-auth-token": Buffer.from(KEY).toString("hex").match(/../g)!.join(",") }],
    [{ "x-auth-token": [...Buffer.from(KEY)].map((byte) => `0x${byte.toString(16)}`).join(", ") }],
    [{ "x-auth-token": [...KEY].join("\u00AD") }],
    [{ "x-auth-token": Buffer.from(KEY).toString("hex").match(/../g)!.join(":") }],
    [{ "x-api-key": "sk_dev_x" }],
    [{ "X-API-KEY": "" }],
    [{ authorization: "Bearer sk_prod_x" }],
    [{ authorization: "bearer anything" }],
    [{ authorization: "  BEARER token" }],
  ])("sees a key in %o", (headers) => expect(carriesApiKey(new Headers(headers))).toBe(true));

  // The whole value is read, however far in the key sits (found by attacking the wall:
  // it read 8 KiB, and at most 64 readings, so 70 junk tokens before the key hid it).
  it.each([
    ["after 9,000 characters", { authorization: `Basic ${"A".repeat(9_000)} ${KEY}` }],
    ["base64, after 15,000 characters", { authorization: `Basic ${"A".repeat(15_000)} ${btoa(`u:${KEY}`)}` }],
    [
      "escaped, after 3,000 parameters",
      { "proxy-authorization": `Digest ${"x=y, ".repeat(3_000)}username=${KEY.replace(/_/g, "%5F")}` },
    ],
    ["base64, after 70 junk tokens", { authorization: `Basic ${"QUFBQUFBQUFBQUFBQ ".repeat(70)}${btoa(`u:${KEY}`)}` }],
  ])("sees a key %s", (_name, headers) => expect(carriesApiKey(new Headers(headers))).toBe(true));

  // What can hide inside a key, sent as UTF-8 bytes, which Node hands over as Latin-1 characters (an attack review
  // of issues 30 and 32: a zero-width space's bytes inside a key passed the wall); and white space inside it.
  const asSent = (text: string) => Buffer.from(text, "utf8").toString("latin1");
  const inside = (hider: string) => `${KEY.slice(0, 12)}${hider}${KEY.slice(12)}`;
  it.each([
    ["a zero-width space", asSent(inside("\u200B"))],
    ["a zero-width joiner", asSent(inside("\u200D"))],
    ["a byte order mark", asSent(inside("\uFEFF"))],
    ["a word joiner", asSent(inside("\u2060"))],
    ["a soft hyphen", asSent(inside("\u00AD"))],
    ["a no-break space", asSent(inside("\u00A0"))],
    ["a tab", inside("\t")],
    ["a zero-width space, in base64", btoa(asSent(inside("\u200B")))],
    // The second attack review: characters a list of seven missed, and escapes of nothing at all.
    ...[
      "\u180E",
      "\u034F",
      "\u3164",
      "\u2800",
      "\u202A",
      "\u202E",
      "\u2062",
      "\u2066",
      "\uFE0F",
      "\u061C",
      "\u{E0020}",
    ].map(
      (hider) => [`U+${hider.codePointAt(0)!.toString(16).toUpperCase()}`, asSent(inside(hider))] as [string, string],
    ),
    ["a NEL byte", inside("\u0085")],
    ["a percent-escaped NUL", inside("%00")],
    ["a \\x escaped NUL", inside("\\x00")],
    ["an HTML-escaped NUL", inside("&#0;")],
    ["a \\u escaped NUL", inside("\\u0000")],
    [
      "UTF-16 in percent escapes",
      [...Buffer.from(KEY, "utf16le")].map((b) => `%${b.toString(16).padStart(2, "0")}`).join(""),
    ],
  ])("sees a key with %s inside it, as its bytes arrive", (_name, value) => {
    expect(holdsKeyShapedToken(value)).toBe(true);
    expect(carriesApiKey(new Headers({ "x-trace-context": value }))).toBe(true);
  });

  // The third attack review: an escape of a character above U+00FF stopped the UTF-8 reading of the whole value;
  // and a key in full-width letters, or with an accent after each character, was not folded.
  it.each([
    [
      "a \\x-escaped zero-width space, beside a character above U+00FF",
      `${KEY.slice(0, 4)}\\xE2\\x80\\x8B${KEY.slice(4)} \\u0100`,
    ],
    ["a quoted-printable zero-width space, beside one", `${KEY.slice(0, 4)}=E2=80=8B${KEY.slice(4)} &#x100;`],
    [
      "full-width letters, as UTF-8 bytes",
      asSent([...KEY].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("")),
    ],
    ["an accent after each character, as UTF-8 bytes", asSent([...KEY].map((c) => `${c}\u0301`).join(""))],
  ])("sees a key with %s", (_name, value) => {
    expect(carriesApiKey(new Headers({ "x-data": value }))).toBe(true);
  });

  // Words that end in "sk" before "_dev_" or "_prod_", then other words: white space is taken out of a key only
  // when what is left is a real key, so these are no key (the third attack review found them refused).
  it.each([
    ["ask_dev_team about it"],
    ["task_dev_ migration pending"],
    ["desk_prod_ second floor lobby"],
    ["risk_dev_ 2024 q3 review"],
  ])("refuses no ordinary note like %o", (value) => {
    expect(carriesApiKey(new Headers({ "x-note": value }))).toBe(false);
  });

  it("reads UTF-8 text that holds no key as nothing (control)", () => {
    expect(carriesApiKey(new Headers({ "x-trace-context": asSent("café — 東京 \u200B ok") }))).toBe(false);
  });

  it.each([
    [{}],
    [{ authorization: "Basic dXNlcjpwYXNz" }],
    [{ cookie: "keyport.session=abc" }],
    [{ authorization: "Bearerish" }],
    [{ authorization: `Basic ${"A".repeat(150)}` }],
    [{ "x-csrf-token": "sk_dev_notes" }],
    // The two headers a third party can fill, and the client's name; see UNREAD_HEADERS on why they are not read.
    [{ cookie: `keyport.session=abc; planted=${KEY}` }],
    [{ "user-agent": `curl/8.5.0 ${KEY}` }],
    [{ referer: `https://example.com/?key=${KEY}` }],
    // The new readings do not see keys in ordinary values.
    [{ "x-request-key": "550e8400-e29b-41d4-a716-446655440000" }],
    [{ authorization: `Bearer`.replace("Bearer", "JWT") + ` ${jwtHolding("user-42")}` }],
    [{ "x-key": randomBytes(64).toString("hex") }],
    [{ "sec-websocket-key": randomBytes(16).toString("base64") }],
  ])("sees none in %o", (headers) => expect(carriesApiKey(new Headers(headers))).toBe(false));

  it("refuses a value longer than the server accepts rather than read it in part", () => {
    expect(holdsKeyShapedToken("A".repeat(MAX_READ))).toBe(false);
    expect(holdsKeyShapedToken("A".repeat(MAX_READ + 1))).toBe(true);
    // The bound is above what server.mjs lets through (Node's header limit, all headers together).
    expect(MAX_READ).toBeGreaterThan(maxHeaderSize);
  });

  // Linear time: a pattern that backtracks, or readings that multiply, would take
  // seconds on 16 KiB of these; they take a few milliseconds, and a budget far
  // above that keeps the test steady on a busy machine.
  it.each([
    ["one long token", "a".repeat(16_000)],
    ["key prefixes", "sk_dev_".repeat(2_300)],
    ["percent escapes", "%41".repeat(5_400)],
    ["base64 tokens", "QUFBQUFBQUFBQUFB ".repeat(950)],
    ["nested base64", btoa(btoa(btoa("Basic QUFBQUFBQUFBQUFB ".repeat(600)))).slice(0, 16_000)],
    ["escaped base64", encodeURIComponent(btoa(btoa("a b%41c ".repeat(2_000)))).slice(0, 16_000)],
    ["a scheme with no end", `${"a".repeat(15_998)} \u0085`],
    // Where the readings from a key prefix start: as many as the value can hold.
    ["base64 of key prefixes", "c2tfA".repeat(3_200)],
    ["base64 of key prefixes, shifted", "NrXAB".repeat(3_200)],
    ["hex of key prefixes", "736b5f".repeat(2_600)],
    ["every escape", "%41\\u0041&#65;\\x41 QUFBQUFB ".repeat(600)],
    [
      "UTF-8 bytes read as Latin-1",
      Buffer.from("\u200B東京 QUFBQUFB ".repeat(820), "utf8").toString("latin1").slice(0, 16_000),
    ],
  ])("reads 16 KiB of %s in linear time", (_name, value) => {
    const started = performance.now();
    for (let i = 0; i < 10; i++) holdsKeyShapedToken(value);
    expect((performance.now() - started) / 10).toBeLessThan(100);
  });
});

describe("clientIp", () => {
  const headers = (xff?: string) =>
    new Headers({ [PEER_IP_HEADER]: "10.0.0.2", ...(xff === undefined ? {} : { "x-forwarded-for": xff }) });

  it("uses the socket's peer and ignores X-Forwarded-For without TRUST_PROXY", () => {
    expect(clientIp(headers("203.0.113.9"), 0)).toBe("10.0.0.2");
  });

  it("takes the entry appended by our own proxy when one is trusted, so a forged left part is ignored", () => {
    expect(clientIp(headers("6.6.6.6, 203.0.113.9"), 1)).toBe("203.0.113.9");
    expect(clientIp(headers("6.6.6.6, 203.0.113.9, 10.0.0.9"), 2)).toBe("203.0.113.9");
    expect(clientIp(headers("203.0.113.9"), 3)).toBe("203.0.113.9");
  });

  it("drops a port a proxy wrote after the address, and nothing else", () => {
    expect(clientIp(headers("6.6.6.6, 203.0.113.9:5678"), 1)).toBe("203.0.113.9");
    expect(clientIp(headers("[2001:db8::1]:443"), 1)).toBe("2001:db8::1");
    expect(clientIp(headers("[2001:db8::1]"), 1)).toBe("2001:db8::1");
    expect(clientIp(headers("2001:db8::1"), 1)).toBe("2001:db8::1");
    expect(clientIp(headers("203.0.113.9:port"), 1)).toBe("unknown");
    expect(clientIp(headers("<script>, 203.0.113.9"), 2)).toBe("unknown");
  });

  it("falls back to the peer when a trusted proxy sent no X-Forwarded-For", () => {
    expect(clientIp(headers(), 1)).toBe("10.0.0.2");
    expect(clientIp(new Headers(), 0)).toBe("unknown");
  });
});

describe("the reading budget", () => {
  it("lets ordinary values through well under it: a large JWT, a cookie-like list, long base64", () => {
    const part = (value: object | Buffer) =>
      (Buffer.isBuffer(value) ? value : Buffer.from(JSON.stringify(value))).toString("base64url");
    const groups = Array.from({ length: 600 }, (_, i) => `group-${i}`);
    const jwt = `${part({ alg: "RS256", kid: "k1" })}.${part({ sub: "user-42", groups })}.${part(randomBytes(256))}`;
    expect(jwt.length).toBeGreaterThan(8_000);
    for (const value of [
      jwt,
      Array.from({ length: 40 }, (_, i) => `c${i}=${randomBytes(30).toString("base64")}`).join("; "),
      randomBytes(12_000).toString("base64"),
    ]) {
      // Two thirds of the wall's budget: measured, they need 8 to 14.
      expect(someReading(value, () => false, { budget: (READING_BUDGET * 2) / 3, shortest: 15 })).toBe(false);
    }
  });

  it("takes a value that needs more than its budget as holding a key, unread", () => {
    const value = `Basic ${randomBytes(6_000).toString("base64")}`;
    expect(someReading(value, () => false)).toBe(false);
    expect(someReading(value, () => false, { budget: 0.5 })).toBe(true);
  });
});
