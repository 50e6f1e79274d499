import { describe, expect, it } from "vitest";
import { BASE62, randomBase62, toBase62 } from "@/lib/keys/base62";
import { keyDigest } from "@/lib/keys/digest";
import {
  API_KEY_PATTERN,
  checksumOf,
  displayFragment,
  generateApiKey,
  KEY_ID_PATTERN,
  newKeyId,
  parseApiKey,
} from "@/lib/keys/format";

describe("API keys", () => {
  it("have the documented shape for each environment", () => {
    for (const environment of ["dev", "prod"] as const) {
      const key = generateApiKey(environment);
      expect(key).toMatch(API_KEY_PATTERN);
      expect(key.startsWith(`sk_${environment}_`)).toBe(true);
      expect(key.length).toBe(`sk_${environment}_`.length + 38);
      expect(parseApiKey(key)).toEqual({ environment });
    }
  });

  it("end with the CRC32 of everything before, as 6 base62 characters", () => {
    const key = generateApiKey("prod");
    expect(key.slice(-6)).toBe(checksumOf(key.slice(0, -6)));
    // A known value: CRC32("abc") is 0x352441c2.
    expect(checksumOf("abc")).toBe(toBase62(0x352441c2, 6));
  });

  it("are unique across 100,000 generated keys", () => {
    const keys = new Set<string>();
    for (let i = 0; i < 100_000; i++) keys.add(generateApiKey("dev"));
    expect(keys.size).toBe(100_000);
  });

  it("use every base62 character in their random part, evenly enough", () => {
    const counts = new Map<string, number>();
    const sample = randomBase62(62_000);
    for (const char of sample) counts.set(char, (counts.get(char) ?? 0) + 1);
    expect(counts.size).toBe(62);
    for (const count of counts.values()) expect(count).toBeGreaterThan(800);
  });

  it("are rejected after any single-character change", () => {
    const key = generateApiKey("dev");
    let tried = 0;
    for (let i = "sk_dev_".length; i < key.length; i++) {
      for (const replacement of BASE62) {
        if (replacement === key[i]) continue;
        const changed = key.slice(0, i) + replacement + key.slice(i + 1);
        expect(parseApiKey(changed), changed).toBeNull();
        tried++;
      }
    }
    expect(tried).toBe(38 * 61);
  });

  it("refuse other shapes", () => {
    const key = generateApiKey("prod");
    for (const bad of [
      "",
      "sk_test_" + key.slice(8),
      key.slice(0, -1),
      key + "x",
      key.replace("sk_prod_", "sk_dev_"),
      ` ${key}`,
      key.toUpperCase(),
    ]) {
      expect(parseApiKey(bad)).toBeNull();
    }
  });

  it("show a fragment of prefix, first four and last four characters", () => {
    for (const environment of ["dev", "prod"] as const) {
      const key = generateApiKey(environment);
      const prefix = `sk_${environment}_`;
      expect(displayFragment(key)).toBe(`${prefix}${key.slice(prefix.length, prefix.length + 4)}…${key.slice(-4)}`);
    }
  });

  it("have public ids of key_ and 16 base62 characters", () => {
    expect(newKeyId()).toMatch(KEY_ID_PATTERN);
    expect(newKeyId()).not.toBe(newKeyId());
  });

  it("are stored as a SHA-256 digest", () => {
    expect(keyDigest("abc")).toBe("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    const key = generateApiKey("dev");
    expect(keyDigest(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(keyDigest(key)).not.toContain(key.slice(7, 15));
  });
});

describe("base62", () => {
  it("pads to the width and encodes the largest CRC32", () => {
    expect(toBase62(0, 6)).toBe("000000");
    expect(toBase62(61, 6)).toBe("00000z");
    expect(toBase62(62, 6)).toBe("000010");
    expect(toBase62(0xffffffff, 6)).toBe("4gfFC3");
  });
});
