// The client's IP address, for rate limits, the lockout and the sessions list.
// server.mjs copies the socket's peer address into PEER_IP_HEADER on every
// request (overwriting anything a client sent). X-Forwarded-For is read only
// when TRUST_PROXY says how many proxies in front of us append to it; then the
// entry that many places from the right is the client as our nearest trusted
// proxy saw it, and anything further left may be forged.
import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { parseAddress } from "../keys/ip-allowlist";

export const PEER_IP_HEADER = "x-keyport-peer-ip";

/**
 * Some proxies (Azure Application Gateway, for one) write the client's port
 * too: "203.0.113.7:5678", "[2001:db8::1]:443". The address is what counts,
 * for the allowlist and the per-IP limits alike; anything else stays as sent
 * (and then matches no allowlist).
 */
function withoutPort(entry: string): string {
  const bracketed = /^\[([0-9A-Fa-f:.]+)\](?::\d{1,5})?$/.exec(entry);
  if (bracketed) return bracketed[1]!;
  const v4WithPort = /^(\d{1,3}(?:\.\d{1,3}){3}):\d{1,5}$/.exec(entry);
  return v4WithPort ? v4WithPort[1]! : entry;
}

export function clientIp(headers: Headers, trustedProxies: number): string {
  if (trustedProxies > 0) {
    const forwarded = headers
      .get("x-forwarded-for")
      ?.split(",")
      .map((entry) => entry.trim())
      .filter(Boolean);
    if (forwarded && forwarded.length > 0) {
      // A proxy count set too high reaches entries the client wrote: anything that is not an address is "unknown".
      const entry = withoutPort(forwarded[Math.max(0, forwarded.length - trustedProxies)] ?? "");
      return isIP(entry) ? entry : "unknown";
    }
  }
  return headers.get(PEER_IP_HEADER) ?? "unknown";
}

/**
 * The client an address counts as, for every per-IP count (the sign-in
 * lockout, the sign-up, reset and report limits): the address itself for
 * IPv4, also when a dual-stack socket reports it IPv4-mapped (::ffff:a.b.c.d,
 * how server.mjs sees every IPv4 client), and the /64 for IPv6, since one
 * subscriber is handed a whole /64 and picks any address in it at will
 * (RFC 4291's interface identifiers; privacy addresses, RFC 8981). Logs, the
 * sessions list and the activity log keep the real address.
 */
export function countedClient(ip: string): string {
  // As strictly as the allowlist reads it; anything else ("unknown", a zone id) counts as itself.
  const address = parseAddress(ip);
  if (!address) return ip;
  if (address instanceof ipaddr.IPv4) return address.toString();
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  return `${new ipaddr.IPv6([...address.parts.slice(0, 4), 0, 0, 0, 0]).toString()}/64`;
}
