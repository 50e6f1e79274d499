import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { displayPath, routeHref } from "@/lib/docs/nav";
import { scopeHref } from "@/lib/docs/scope-routes";
import { publicRoutes, versionOf, type ApiVersion, type PublicRoute } from "@/lib/public-api/routes";

function RouteRow({ route }: { route: PublicRoute }) {
  return (
    <tr data-route={route.name}>
      <Td>
        <Badge tone={route.method === "GET" ? "info" : "success"}>{route.method}</Badge>
      </Td>
      <Td>
        <Link href={routeHref(route)}>
          <code className="break-all">{displayPath(route)}</code>
        </Link>
      </Td>
      <Td>{route.summary}</Td>
      <Td>
        <Link href={scopeHref(route.scope)}>
          <code className="break-all">{route.scope}</code>
        </Link>
      </Td>
    </tr>
  );
}

const VERSIONS: ApiVersion[] = ["v1", "v1beta"];

/** The public routes, straight from the registry; grouped, each version under a heading row. */
export function RouteTable({ grouped = false }: { grouped?: boolean }) {
  return (
    <Table caption="The public API's routes">
      <THead>
        <tr>
          <Th>Method</Th>
          <Th>Path</Th>
          <Th>Summary</Th>
          <Th>Scope</Th>
        </tr>
      </THead>
      {grouped ? (
        VERSIONS.map((version) => (
          <tbody key={version}>
            <tr>
              <th scope="colgroup" colSpan={4} className="bg-zinc-50 px-3 py-2 text-left dark:bg-zinc-900">
                {version}
              </th>
            </tr>
            {publicRoutes
              .filter((route) => versionOf(route) === version)
              .map((route) => (
                <RouteRow key={route.name} route={route} />
              ))}
          </tbody>
        ))
      ) : (
        <tbody>
          {publicRoutes.map((route) => (
            <RouteRow key={route.name} route={route} />
          ))}
        </tbody>
      )}
    </Table>
  );
}
