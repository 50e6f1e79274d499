// Each scope with what it allows and the routes it opens, read from SCOPES and
// the route registry: the restricted-keys page's table, each route page's
// scope line and the route list's Scope column all come from here, so a route
// moved to another scope moves in every one of them.
import { publicRoutes, type PublicRoute } from "../public-api/routes";
import { READ_ONLY_SCOPES, SCOPE_NAMES, SCOPES, type Scope } from "../keys/scopes";

export const RESTRICTED_KEYS_HREF = "/docs/restricted-keys";

/** The id of a scope's row in the restricted-keys table: catalog:read -> scope-catalog-read. */
export function scopeAnchor(scope: Scope): string {
  return `scope-${scope.replace(/[^a-z0-9]+/g, "-")}`;
}

export function scopeHref(scope: Scope): string {
  return `${RESTRICTED_KEYS_HREF}#${scopeAnchor(scope)}`;
}

export interface ScopeRow {
  scope: Scope;
  description: string;
  /** Whether a Read only key holds it. */
  readOnly: boolean;
  /** The registry's routes that need this scope, in the registry's order. */
  routes: PublicRoute[];
}

export function scopeRows(): ScopeRow[] {
  return SCOPE_NAMES.map((scope) => ({
    scope,
    description: SCOPES[scope],
    readOnly: READ_ONLY_SCOPES.includes(scope),
    routes: (publicRoutes as readonly PublicRoute[]).filter((route) => route.scope === scope),
  }));
}
