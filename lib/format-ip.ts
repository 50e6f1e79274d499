/**
 * An IP address as a person reads it: an IPv4 client seen through an IPv6
 * socket (`::ffff:203.0.113.7`) is shown as the IPv4 address it is.
 */
export function displayIp(ip: string | null | undefined): string {
  if (!ip) return "unknown";
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(ip);
  return mapped ? mapped[1]! : ip;
}
