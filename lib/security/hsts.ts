/** HSTS for an https deployment: the pages get it from proxy.ts, the public API from the gate. */
export const HSTS = "max-age=63072000; includeSubDomains";

export function strictTransportSecurity(baseUrl: string): string | null {
  return baseUrl.startsWith("https://") ? HSTS : null;
}
