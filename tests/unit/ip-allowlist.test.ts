import { describe, expect, it } from "vitest";
import {
  displayEntry,
  ipAllowed,
  MAX_ALLOWLIST_ENTRIES,
  parseAllowlist,
  parseAllowlistEntry,
} from "@/lib/keys/ip-allowlist";

const entry = (text: string) => parseAllowlistEntry(text);

describe("parseAllowlistEntry", () => {
  it("keeps addresses and ranges in one canonical form", () => {
    expect(entry("203.0.113.0/24")).toEqual({ ok: true, entry: "203.0.113.0/24" });
    expect(entry(" 203.0.113.7 ")).toEqual({ ok: true, entry: "203.0.113.7/32" });
    expect(entry("2001:DB8:0:0::/32")).toEqual({ ok: true, entry: "2001:db8::/32" });
    expect(entry("::1")).toEqual({ ok: true, entry: "::1/128" });
  });

  it("turns an IPv4-mapped IPv6 range into the IPv4 range it maps, however RFC 4291 spells it", () => {
    expect(entry("::ffff:203.0.113.0/120")).toEqual({ ok: true, entry: "203.0.113.0/24" });
    expect(entry("::ffff:203.0.113.9")).toEqual({ ok: true, entry: "203.0.113.9/32" });
    expect(entry("0:0:0:0:0:ffff:203.0.113.9")).toEqual({ ok: true, entry: "203.0.113.9/32" });
    expect(entry("0000::FFFF:203.0.113.9")).toEqual({ ok: true, entry: "203.0.113.9/32" });
    expect(entry("::ffff:cb00:7109")).toEqual({ ok: true, entry: "203.0.113.9/32" });
  });

  it.each([
    ["not-an-ip", "is not an IPv4 or IPv6 address"],
    ["10.0.0.300", "is not an IPv4 or IPv6 address"],
    ["127.1", "is not an IPv4 or IPv6 address"],
    ["0x7f.0.0.1", "is not an IPv4 or IPv6 address"],
    ["10.0.0.0/33", "from 0 to 32"],
    ["2001:db8::/129", "from 0 to 128"],
    ["10.0.0.0/x", "from 0 to 32"],
    ["10.0.0.0/8/8", "is not an IPv4 or IPv6 address"],
    ["fe80::1%eth0", "is not an IPv4 or IPv6 address"],
    ["10.0.0.1/24", "did you mean 10.0.0.0/24?"],
    ["2001:db8::1/32", "did you mean 2001:db8::/32?"],
    ["0.0.0.0/0", "allows every address"],
    // The deprecated IPv4-compatible form: ipaddr.js would read it as mapped, half of IPv4 for ::0.0.0.0/97.
    ["::1.2.3.4", "is not an IPv4 or IPv6 address"],
    ["::0.0.0.0/97", "is not an IPv4 or IPv6 address"],
    ["::ffff:010.0.0.1", "is not an IPv4 or IPv6 address"],
    ["::ffff:0:1.2.3.4", "is not an IPv4 or IPv6 address"],
    ["64:ff9b::1.2.3.4", "is not an IPv4 or IPv6 address"],
    ["::/0", "allows every address"],
  ])("refuses %s with a message that says why", (text, message) => {
    const result = entry(text);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error).toContain(message);
  });
});

describe("parseAllowlist", () => {
  it("reads entries separated by new lines, commas or spaces, without repeats; empty means anywhere", () => {
    expect(parseAllowlist("203.0.113.0/24,\n2001:db8::/32  203.0.113.0/24")).toEqual({
      ok: true,
      entries: ["203.0.113.0/24", "2001:db8::/32"],
    });
    expect(parseAllowlist(" \n ")).toEqual({ ok: true, entries: null });
  });

  it("refuses the whole list when one entry is bad: nothing is dropped silently", () => {
    const result = parseAllowlist("203.0.113.0/24\n10.0.0.300");
    expect(result).toEqual({ ok: false, error: expect.stringContaining("10.0.0.300") });
  });

  it("counts an entry typed twice once", () => {
    expect(
      parseAllowlist(
        Array(MAX_ALLOWLIST_ENTRIES + 10)
          .fill("10.0.0.1")
          .join("\n"),
      ),
    ).toEqual({
      ok: true,
      entries: ["10.0.0.1/32"],
    });
  });

  it(`refuses more than ${MAX_ALLOWLIST_ENTRIES} entries`, () => {
    const many = Array.from({ length: MAX_ALLOWLIST_ENTRIES + 1 }, (_, i) => `10.0.${i}.0/24`).join("\n");
    expect(parseAllowlist(many).ok).toBe(false);
  });
});

describe("ipAllowed", () => {
  const list = ["203.0.113.0/24", "2001:db8::/32", "198.51.100.7/32"];

  it("matches IPv4 and IPv6 clients inside the ranges, and nothing outside", () => {
    expect(ipAllowed("203.0.113.200", list)).toBe(true);
    expect(ipAllowed("198.51.100.7", list)).toBe(true);
    expect(ipAllowed("2001:db8:1::9", list)).toBe(true);
    expect(ipAllowed("203.0.114.1", list)).toBe(false);
    expect(ipAllowed("198.51.100.8", list)).toBe(false);
    expect(ipAllowed("2001:db9::1", list)).toBe(false);
  });

  it("matches an IPv4-mapped IPv6 client as IPv4", () => {
    expect(ipAllowed("::ffff:203.0.113.9", list)).toBe(true);
    expect(ipAllowed("::ffff:10.0.0.1", list)).toBe(false);
  });

  it("reads a client address as strictly as an entry: shorthand, octal, hex, integer and zone forms never match", () => {
    const local = ["10.0.0.1/32", "127.0.0.1/32"];
    for (const forged of ["167772161", "0xa.0.0.1", "10.1", "0177.0.0.1", "::10.0.0.1", "::ffff:10.0.0.1%eth0"]) {
      expect(ipAllowed(forged, local), forged).toBe(false);
    }
    expect(ipAllowed("10.0.0.1", local)).toBe(true);
    expect(ipAllowed("::ffff:127.0.0.1", local)).toBe(true);
  });

  it("never allows an address that does not parse", () => {
    expect(ipAllowed("unknown", list)).toBe(false);
    expect(ipAllowed("", list)).toBe(false);
    expect(ipAllowed("203.0.113.9, 10.0.0.1", list)).toBe(false);
  });
});

it("shows a single address without its /32 or /128", () => {
  expect(displayEntry("203.0.113.7/32")).toBe("203.0.113.7");
  expect(displayEntry("203.0.113.0/24")).toBe("203.0.113.0/24");
  expect(displayEntry("::1/128")).toBe("::1");
  expect(displayEntry("2001:db8::/32")).toBe("2001:db8::/32");
});
