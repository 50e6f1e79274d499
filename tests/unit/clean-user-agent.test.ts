// A user agent is stored with every session, activity row and request log
// row (lib/text.ts cleanUserAgent): a key in it, plain or encoded, is never
// stored. An attack review stored base64, percent-escaped and hex keys.
import { describe, expect, it } from "vitest";
import { generateApiKey } from "@/lib/keys/format";
import { cleanUserAgent, WITHHELD_USER_AGENT } from "@/lib/text";

// Generated, never a key-shaped literal in the repo.
const KEY = generateApiKey("dev");

/** A header as Node hands it over: one character per byte of its UTF-8. */
const asNodeReadsIt = (text: string) => Buffer.from(text, "utf8").toString("latin1");

describe("cleanUserAgent", () => {
  it("reads a UTF-8 user agent as UTF-8, not one character per byte (a new user's walk: mojibake)", () => {
    expect(asNodeReadsIt("Tool/東京")).not.toBe("Tool/東京");
    expect(cleanUserAgent(asNodeReadsIt("Tool/東京 (Zürich)"))).toBe("Tool/東京 (Zürich)");
    // Text that is not UTF-8 stays as it came, and text already read stays as it is.
    expect(cleanUserAgent("Zürich/1.0")).toBe("Zürich/1.0");
    expect(cleanUserAgent("Tool/東京")).toBe("Tool/東京");
    // A key inside a UTF-8 user agent is still redacted, and one split by a UTF-8 NEL too.
    expect(cleanUserAgent(asNodeReadsIt(`東京 ${KEY}`))).toBe("東京 sk_dev_[redacted]");
    expect(cleanUserAgent(asNodeReadsIt(`東京 ${KEY.slice(0, 20)}\u0085${KEY.slice(20)}`))).toBe(
      "東京 sk_dev_[redacted]",
    );
  });

  it("redacts a plain key and keeps the rest", () => {
    expect(cleanUserAgent(`curl/8.5.0 ${KEY}`)).toBe("curl/8.5.0 sk_dev_[redacted]");
  });

  it.each([
    ["base64", `Mozilla/5.0 ${Buffer.from(KEY).toString("base64")}`],
    ["percent-escaped", `sdk/1.0 ${KEY.replace(/_/g, "%5F")}`],
    ["hex", `sdk/1.0 (${Buffer.from(KEY).toString("hex")})`],
    ["hex of base64", `sdk/1.0 ${Buffer.from(btoa(KEY)).toString("hex")}`],
    ["behind %u escapes", `sdk/1.0 ${KEY.replace(/_/g, "%u005F")}`],
    // Third look of the attack review: in chunks the first filter did not see.
    [
      "base64 in chunks of 20",
      `sdk/1.0 ${Buffer.from(KEY)
        .toString("base64")
        .match(/.{1,20}/g)!
        .join(" ")}`,
    ],
    [
      "base64 in chunks of 16 between dots",
      `sdk/1.0 ${Buffer.from(KEY)
        .toString("base64")
        .match(/.{1,16}/g)!
        .join(".")}`,
    ],
    ["hex as spaced pairs", `sdk/1.0 ${Buffer.from(KEY).toString("hex").match(/../g)!.join(" ")}`],
    ["split into short pieces", `sdk/1.0 ${KEY.match(/.{1,10}/g)!.join(" ")}`],
    // The re-check after it: other separators, and a character that shows nothing.
    [
      "base64 in chunks joined by dashes",
      `sdk/1.0 ${Buffer.from(KEY)
        .toString("base64")
        .match(/.{1,20}/g)!
        .join("-")}`,
    ],
    [
      "base64 in chunks joined by underscores",
      `sdk/1.0 ${Buffer.from(KEY)
        .toString("base64")
        .match(/.{1,20}/g)!
        .join("_")}`,
    ],
    ["hex pairs joined by commas", `sdk/1.0 ${Buffer.from(KEY).toString("hex").match(/../g)!.join(",")}`],
    ["0x hex", `sdk/1.0 ${[...Buffer.from(KEY)].map((byte) => `0x${byte.toString(16)}`).join(" ")}`],
    [
      "in pieces joined by dots",
      `sdk/1.0 ${KEY.slice(0, 7)}${KEY.slice(7)
        .match(/.{1,5}/g)!
        .join(".")}`,
    ],
    ["behind a slash", `sdk/1.0 ${KEY.slice(0, 7)}/${KEY.slice(7)}`],
    ["with soft hyphens", `sdk/1.0 ${[...KEY].join("\u00AD")}`],
  ])("withholds the whole user agent when a key is in it %s", (_how, userAgent) => {
    expect(cleanUserAgent(userAgent)).toBe(WITHHELD_USER_AGENT);
  });

  it.each([
    "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
    "curl/8.5.0",
    "aws-sdk-js/3.600.0 ua/2.1 os/linux#6.1 lang/js md/nodejs#20.20.2 api/s3#3.600.0 m/E,N",
    "ci-runner/2.0 build/5f2b9c1e8d7a6b5c4d3e2f1a0b9c8d7e6f5a4b3c (sk_dev_notes2024)",
  ])("keeps an ordinary user agent: %s", (userAgent) => {
    expect(cleanUserAgent(userAgent)).not.toBe(WITHHELD_USER_AGENT);
  });
});
