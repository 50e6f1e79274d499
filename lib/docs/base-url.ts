import { publicBaseUrl } from "../env-schema";

/** The deployment's origin as the examples write it: PUBLIC_BASE_URL without a trailing slash. */
export function docsBaseUrl(): string {
  return publicBaseUrl().replace(/\/+$/, "");
}
