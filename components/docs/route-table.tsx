import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { displayPath, routeHref } from "@/lib/docs/nav";
import { publicRoutes, versionOf, type ApiVersion } from "@/lib/public-api/routes";

/** The public routes of one version (or all), straight from the registry. */
export function RouteTable({ version }: { version?: ApiVersion }) {
  const routes = publicRoutes.filter((route) => !version || versionOf(route) === version);
  return (
    <Table caption={version ? `The ${version} routes` : "The public API's routes"}>
      <THead>
        <tr>
          <Th>Method</Th>
          <Th>Path</Th>
          <Th>Summary</Th>
        </tr>
      </THead>
      <tbody>
        {routes.map((route) => (
          <tr key={route.name} data-route={route.name}>
            <Td>
              <Badge tone={route.method === "GET" ? "info" : "success"}>{route.method}</Badge>
            </Td>
            <Td>
              <Link href={routeHref(route)}>
                <code className="break-all">{displayPath(route)}</code>
              </Link>
            </Td>
            <Td>{route.summary}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
