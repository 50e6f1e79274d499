import ipaddr from "ipaddr.js";

// A key's IP allowlist: IPv4 and IPv6 addresses and CIDR ranges. Entries are
// kept in one canonical form ("203.0.113.0/24", "2001:db8::/32"; a single
// address is a /32 or /128), so equal lists compare equal and the gate parses
// nothing it has not parsed before. ipaddr.js does the address arithmetic.

export const MAX_ALLOWLIST_ENTRIES = 50;

export type EntryResult = { ok: true; entry: string } | { ok: false; error: string };

type Address = ipaddr.IPv4 | ipaddr.IPv6;

/**
 * Strict forms only: "127.1", "0x7f.0.0.1" and "010.0.0.1" are valid to
 * ipaddr.js, but nobody means them. An IPv6 address with a dotted tail must
 * be IPv4-mapped (::ffff:a.b.c.d, in any spelling RFC 4291 allows):
 * ipaddr.js reads the deprecated IPv4-compatible form (::a.b.c.d) as mapped
 * too, which would turn a small IPv6 range into a wide IPv4 one.
 */
export function parseAddress(text: string): Address | null {
  if (ipaddr.IPv4.isValidFourPartDecimal(text)) return ipaddr.IPv4.parse(text);
  if (!text.includes(":") || text.includes("%") || !ipaddr.IPv6.isValid(text)) return null;
  const dotted = /:([^:]*\.[^:]*)$/.exec(text)?.[1];
  if (dotted === undefined) return ipaddr.IPv6.parse(text);
  if (!ipaddr.IPv4.isValidFourPartDecimal(dotted)) return null;
  // The groups before the dotted tail must spell ::ffff: themselves. The tail becomes two hex groups first:
  // with a dotted tail left in, ipaddr.js would call ::a.b.c.d mapped.
  const head = text.slice(0, -dotted.length);
  if (!ipaddr.IPv6.isValid(`${head}0:0`)) return null;
  const groups = ipaddr.IPv6.parse(`${head}0:0`).parts;
  const mapped = groups.slice(0, 5).every((group) => group === 0) && groups[5] === 0xffff;
  return mapped ? ipaddr.IPv6.parse(text) : null;
}

/** An IPv4-mapped IPv6 range (::ffff:203.0.113.0/120) is the IPv4 range it maps. */
function unmapped(address: Address, bits: number): [Address, number] {
  if (address instanceof ipaddr.IPv6 && address.isIPv4MappedAddress() && bits >= 96) {
    return [address.toIPv4Address(), bits - 96];
  }
  return [address, bits];
}

export function parseAllowlistEntry(input: string): EntryResult {
  const text = input.trim();
  const [addressText = "", bitsText, extra] = text.split("/");
  const parsed = parseAddress(addressText);
  if (!parsed || extra !== undefined) {
    return { ok: false, error: `“${text}” is not an IPv4 or IPv6 address or CIDR range.` };
  }
  const maxBits = parsed.kind() === "ipv4" ? 32 : 128;
  if (bitsText !== undefined && !/^\d{1,3}$/.test(bitsText)) {
    return { ok: false, error: `“${text}”: the prefix length after “/” must be a number from 0 to ${maxBits}.` };
  }
  const prefix = bitsText === undefined ? maxBits : Number(bitsText);
  if (prefix > maxBits) {
    return { ok: false, error: `“${text}”: the prefix length after “/” must be a number from 0 to ${maxBits}.` };
  }
  const [address, bits] = unmapped(parsed, prefix);
  const cidr = `${address.toString()}/${bits}`;
  const network =
    address instanceof ipaddr.IPv4
      ? ipaddr.IPv4.networkAddressFromCIDR(cidr)
      : ipaddr.IPv6.networkAddressFromCIDR(cidr);
  if (network.toString() !== address.toString()) {
    // Saying so beats silently widening or narrowing what the user typed.
    return { ok: false, error: `“${text}” has bits set after the prefix: did you mean ${network.toString()}/${bits}?` };
  }
  if (bits === 0) {
    return { ok: false, error: `“${text}” allows every address; leave the allowlist empty to allow any address.` };
  }
  return { ok: true, entry: `${address.toString()}/${bits}` };
}

export type AllowlistResult = { ok: true; entries: string[] | null } | { ok: false; error: string };

/** A list typed by a person: entries separated by commas, spaces or new lines. Empty means anywhere. */
export function parseAllowlist(input: string): AllowlistResult {
  const parts = input.split(/[\s,]+/).filter(Boolean);
  if (parts.length === 0) return { ok: true, entries: null };
  const entries: string[] = [];
  for (const part of parts) {
    const result = parseAllowlistEntry(part);
    if (!result.ok) return result;
    // Repeats count once, however they are spelled (203.0.113.7 and 203.0.113.7/32 are one entry).
    if (!entries.includes(result.entry)) entries.push(result.entry);
  }
  if (entries.length > MAX_ALLOWLIST_ENTRIES) {
    return { ok: false, error: `Use at most ${MAX_ALLOWLIST_ENTRIES} entries; a wider range can cover several.` };
  }
  return { ok: true, entries };
}

/** How an entry reads in the dashboard, the CLI and the form: a single address without /32 or /128. */
export function displayEntry(entry: string): string {
  const single = entry.includes(":") ? "/128" : "/32";
  return entry.endsWith(single) ? entry.slice(0, -single.length) : entry;
}

export function serializeAllowlist(entries: readonly string[] | null): string | null {
  return entries && entries.length > 0 ? entries.join(" ") : null;
}

export function parseStoredAllowlist(stored: string | null): string[] | null {
  return stored ? stored.split(" ").filter(Boolean) : null;
}

// eslint-disable-next-line no-restricted-syntax -- a bounded memo of a pure parse.
const rangeCache = new Map<string, [Address, number][]>();

/** The gate parses each distinct stored list once per process; the cache is small and bounded. */
function ranges(entries: readonly string[]): [Address, number][] {
  const cacheKey = entries.join(" ");
  let parsed = rangeCache.get(cacheKey);
  if (!parsed) {
    parsed = entries.flatMap((entry) => {
      const result = parseAllowlistEntry(entry);
      return result.ok ? [ipaddr.parseCIDR(result.entry)] : [];
    });
    if (rangeCache.size >= 1_000) rangeCache.clear();
    rangeCache.set(cacheKey, parsed);
  }
  return parsed;
}

/**
 * Whether a client IP is inside the allowlist. An IPv4-mapped IPv6 client
 * (::ffff:203.0.113.7, as a dual-stack socket reports IPv4 peers) is matched
 * as IPv4. An address that does not parse strictly ("unknown", a forged
 * X-Forwarded-For entry, a zone id) is never allowed.
 */
export function ipAllowed(clientIp: string, entries: readonly string[]): boolean {
  // The same strict reading as the allowlist's entries: a forwarded "0177.0.0.1" or "167772161" is no address.
  const parsed = parseAddress(clientIp);
  if (!parsed) return false;
  const [address] = unmapped(parsed, parsed instanceof ipaddr.IPv4 ? 32 : 128);
  return ranges(entries).some(([range, bits]) => {
    if (address instanceof ipaddr.IPv4) return range instanceof ipaddr.IPv4 && address.match(range, bits);
    return range instanceof ipaddr.IPv6 && address.match(range, bits);
  });
}

/** Whether every address `inner` allows, `outer` allows too (null: any address). Entries are canonical. */
export function allowlistWithin(inner: readonly string[] | null, outer: readonly string[] | null): boolean {
  if (outer === null) return true;
  if (inner === null) return false;
  const outerRanges = ranges(outer);
  return ranges(inner).every(([address, bits]) =>
    outerRanges.some(
      ([range, rangeBits]) => range.kind() === address.kind() && rangeBits <= bits && address.match(range, rangeBits),
    ),
  );
}
