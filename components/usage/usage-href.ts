import { DEFAULT_USAGE_RANGE, type UsageRange } from "@/lib/usage/usage-range";

export interface UsageQuery {
  usage: UsageRange;
  status?: string | undefined;
  route?: string | undefined;
  page?: number | undefined;
}

/**
 * The key page's address for a range, filters and page of the log (keyHref: the page's path, in its team); the
 * default range is left out.
 */
export function usageHref(keyHref: string, query: UsageQuery, hash: "usage" | "requests"): string {
  const params = new URLSearchParams();
  if (query.usage !== DEFAULT_USAGE_RANGE) params.set("usage", query.usage);
  if (query.status) params.set("status", query.status);
  if (query.route) params.set("route", query.route);
  if (query.page && query.page > 1) params.set("page", String(query.page));
  const search = params.toString();
  return `${keyHref}${search ? `?${search}` : ""}#${hash}`;
}

/** The CSV download of the log as shown: the range and the filters. */
export function usageCsvHref(keyHref: string, query: UsageQuery): string {
  const params = new URLSearchParams({ range: query.usage });
  if (query.status) params.set("status", query.status);
  if (query.route) params.set("route", query.route);
  return `${keyHref}/usage.csv?${params}`;
}
