// Does a request carry an API key? Used by the proxy and by the session guard
// to keep keys off every internal route. Deliberately broad and database-free:
// any X-API-Key header, or any Bearer credential, counts, valid or not.
export function carriesApiKey(headers: Headers): boolean {
  if (headers.has("x-api-key")) return true;
  const authorization = headers.get("authorization");
  return authorization !== null && /^\s*bearer\b/i.test(authorization);
}
