// Where a team's pages live: every one names the team's slug, so a link in a
// mail or a chat opens the right team. One place, for pages, components and
// mails alike (no server-only: client components build links with it).

export const teamPath = (slug: string) => `/dashboard/${slug}`;
export const keyPath = (slug: string, keyId: string) => `/dashboard/${slug}/keys/${keyId}`;
export const activityPath = (slug: string) => `/dashboard/${slug}/activity`;
export const membersPath = (slug: string) => `/dashboard/${slug}/members`;
export const settingsPath = (slug: string) => `/dashboard/${slug}/settings`;
export const keyRequestsPath = (slug: string) => `/dashboard/${slug}/requests`;
export const keyRequestPath = (slug: string, requestId: string) => `/dashboard/${slug}/requests/${requestId}`;

/** A path with a page's query string kept, for the redirects from links made before teams. */
export function withQuery(path: string, query: Record<string, string | string[] | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    for (const one of Array.isArray(value) ? value : value === undefined ? [] : [value]) params.append(name, one);
  }
  const search = params.toString();
  return search ? `${path}?${search}` : path;
}
