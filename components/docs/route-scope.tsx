import Link from "next/link";
import { scopeHref } from "@/lib/docs/scope-routes";
import type { PublicRoute } from "@/lib/public-api/routes";
import { SCOPES } from "@/lib/keys/scopes";

/** The scope a route needs, as the registry declares it, linked to its row on the restricted-keys page. */
export function RouteScope({ route }: { route: PublicRoute }) {
  return (
    <p data-route-scope={route.scope}>
      Scope:{" "}
      <Link href={scopeHref(route.scope)}>
        <code>{route.scope}</code>
      </Link>
      . {SCOPES[route.scope]} A key with All has it; a <Link href="/docs/restricted-keys">restricted key</Link> without
      it is refused with <Link href="/docs/errors#insufficient_scope">403 insufficient_scope</Link>.
    </p>
  );
}
