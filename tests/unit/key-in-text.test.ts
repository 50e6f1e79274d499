// Keys inside longer text (lib/keys/key-in-text.ts, lib/keys/key-shaped.ts):
// what the stored-value refusal and the user-agent redaction find, and what
// they leave alone.
import { describe, expect, it } from "vitest";
import { containsApiKey, holdsApiKey } from "@/lib/keys/key-in-text";
import { generateApiKey, KEY_ENVIRONMENTS } from "@/lib/keys/format";
import { KEY_PREFIX, redactKeyShaped } from "@/lib/keys/key-shaped";

// Generated, never a key-shaped literal in the repo.
const KEY = generateApiKey("dev");
const PROD = generateApiKey("prod");
const BODY = KEY.slice("sk_dev_".length);
/** The key with one character of its body changed: the checksum fails. */
const MISTYPED = KEY.slice(0, 10) + (KEY[10] === "A" ? "B" : "A") + KEY.slice(11);

it("reads the key prefix from the one list of environments", () => {
  expect(KEY_PREFIX).toBe(`sk_(${KEY_ENVIRONMENTS.join("|")})_`);
});

describe("containsApiKey", () => {
  it.each([
    ["alone", KEY],
    ["inside a file name", `backup-${PROD}.txt`],
    ["right after letters", `idem${KEY}`],
    ["right before letters", `${KEY}retry2`],
    // A global match would take "sk_dev_" and the next 38 characters, ending in the real key's "sk", and step past it.
    ["behind a key-shaped run that ends in its prefix", `sk_dev_${"A".repeat(36)}${KEY}`],
    ["after a mistyped key", `${MISTYPED}-${KEY}`],
  ])("finds a key %s", (_where, text) => expect(containsApiKey(text)).toBe(true));

  it.each([
    ["a note named like a key", "sk_dev_notes2024.txt"],
    ["a mistyped key", MISTYPED],
    ["a key cut short", KEY.slice(0, -1)],
    ["a key-shaped run of the right length", `sk_prod_${"A".repeat(38)}`],
    ["a key of another prefix", `pk_dev_${BODY}`],
  ])("finds none in %s", (_what, text) => expect(containsApiKey(text)).toBe(false));
});

describe("holdsApiKey", () => {
  it.each([
    ["percent-escaped", encodeURIComponent(KEY).replace(/_/g, "%5F")],
    ["base64", Buffer.from(`upload:${KEY}`).toString("base64")],
    ["base64url inside a longer name", `${Buffer.from(KEY).toString("base64url")}.json`],
    // Found by attacking the stored-value refusal.
    ["hex", Buffer.from(KEY).toString("hex")],
    ["hex in a file name, off the byte grid", `backup-a${Buffer.from(KEY).toString("hex")}.bin`],
    ["read backwards", [...KEY].reverse().join("")],
    ["behind a \\u escape", KEY.replace(/^s/, "\\u0073")],
    ["behind an HTML character reference", KEY.replace(/^s/, "&#115;")],
    ["base64 glued to a name, off its grid", `notes${Buffer.from(`x${KEY}`).toString("base64")}.txt`],
    ["split by a space", `${KEY.slice(0, 20)} ${KEY.slice(20)}.txt`],
    // Second round: an encoding inside another, and escapes the first round did not read.
    ["hex of base64", Buffer.from(btoa(KEY)).toString("hex")],
    ["hex of UTF-16", Buffer.from(KEY, "utf16le").toString("hex")],
    ["behind %u escapes", KEY.replace(/_/g, "%u005F")],
    ["quoted-printable", KEY.replace(/_/g, "=5F")],
    ["in a JWT's payload", `eyJhbGciOiJub25lIn0.${Buffer.from(JSON.stringify({ k: KEY })).toString("base64url")}.`],
    // The attack review of approvals: split by characters that show nothing, or a blank that looks like a space.
    ...["\u2062", "\u034F", "\u180E", "\u3164", "\u2800", "\u{E0041}", "\u{1D159}"].map((mark) => [
      `split by U+${mark.codePointAt(0)!.toString(16).toUpperCase()}`,
      `${KEY.slice(0, 20)}${mark}${KEY.slice(20)}`,
    ]),
    // The attack review of the report page: in an address, a percent-escaped (UTF-8) zero-width space or space
    // inside the prefix.
    ["split by a percent-escaped zero-width space", `https://x.test/?k=${KEY.replace("sk_", "sk%E2%80%8B_")}`],
    ["split by a percent-escaped space", `https://x.test/?k=${KEY.replace("sk_", "s%20k_")}`],
    // The attack review of issues 30 and 32: written in full-width characters, which NFKC folds to the key.
    ["in full-width characters", [...KEY].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("")],
    ["with a full-width prefix", `ｓｋ＿ｄｅｖ＿${BODY}`],
    // The second attack review: split by what is not a separator of words, parenthesized letters, accents.
    ...["+", "*", "~", '"', "。", "+;*", "&", "%00"].map((mark) => [
      `split by ${mark}`,
      `${KEY.slice(0, 9)}${mark}${KEY.slice(9, 25)}${mark}${KEY.slice(25)}`,
    ]),
    [
      "in parenthesized letters",
      [...KEY].map((c) => (/[a-z]/.test(c) ? String.fromCodePoint(0x249c + c.charCodeAt(0) - 97) : c)).join(""),
    ],
    ["with a combining accent after each character", [...KEY].map((c) => `${c}\u0301`).join("")],
    // The third attack review: folding and reading backwards applied to what was decoded, not only to the value.
    [
      "full-width, in base64",
      Buffer.from([...KEY].map((c) => String.fromCodePoint(c.codePointAt(0)! + 0xfee0)).join("")).toString("base64"),
    ],
    ["full-width, in \\u escapes", [...KEY].map((c) => `\\u${(c.codePointAt(0)! + 0xfee0).toString(16)}`).join("")],
    [
      "full-width, in HTML references",
      [...KEY].map((c) => `&#x${(c.codePointAt(0)! + 0xfee0).toString(16)};`).join(""),
    ],
    ["reversed, in base64", Buffer.from([...KEY].reverse().join("")).toString("base64")],
    ["reversed, in hex", Buffer.from([...KEY].reverse().join("")).toString("hex")],
    [
      "split twice in an address's fragment",
      `https://x.test/#${KEY.slice(0, 15)}+${KEY.slice(15, 30)}+${KEY.slice(30)}`,
    ],
  ])("finds a key %s", (_how, text) => expect(holdsApiKey(text)).toBe(true));

  it("finds none in ordinary values", () => {
    const ordinary = [
      "550e8400-e29b-41d4-a716-446655440000",
      "sk_dev_notes2024.txt",
      "report (final).pdf",
      "txt.4202seton_ved_ks",
      `sha256-${"736b5f".repeat(2)}${"0".repeat(52)}.bin`,
      `eyJhbGciOiJub25lIn0.${Buffer.from('{"sub":"user-42"}').toString("base64url")}.`,
      "&#115;k&lowbar;dev&lowbar;notes \\u0073k_prod_draft",
      "Équipe Données — 東京 ｓｋ＿ｄｅｖ＿ｎｏｔｅｓ",
    ];
    for (const text of ordinary) {
      expect(holdsApiKey(text), text).toBe(false);
    }
  });
});

describe("redactKeyShaped", () => {
  it("redacts each key, and a key cut short, keeping what is around them", () => {
    expect(redactKeyShaped(`bot/1.0 ${KEY} and ${PROD.slice(0, 20)}`)).toBe(
      "bot/1.0 sk_dev_[redacted] and sk_prod_[redacted]",
    );
  });

  it("leaves nothing of a key that starts inside a key-shaped run", () => {
    const redacted = redactKeyShaped(`x sk_dev_AAAAAA${KEY} y`);
    expect(redacted).toBe("x sk_dev_[redacted] y");
    expect(redacted).not.toContain(BODY);
  });

  it("leaves text without a key-shaped run as it is", () => {
    expect(redactKeyShaped("curl/8.5 sk_dev_abc")).toBe("curl/8.5 sk_dev_abc");
  });

  it("reads 16 KiB of key prefixes in linear time", () => {
    const started = performance.now();
    redactKeyShaped("sk_dev_AAAAAAsk_".repeat(1_000));
    containsApiKey("sk_dev_".repeat(2_300));
    expect(performance.now() - started).toBeLessThan(100);
  });
});
