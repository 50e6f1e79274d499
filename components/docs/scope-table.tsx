import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { displayPath, routeHref } from "@/lib/docs/nav";
import { scopeAnchor, scopeRows } from "@/lib/docs/scope-routes";

/** Every scope, what it allows and the routes that need it: from SCOPES and the registry, never typed here. */
export function ScopeTable() {
  return (
    <Table caption="Scopes and the routes each one allows">
      <THead>
        <tr>
          <Th>Scope</Th>
          <Th>Allows</Th>
          <Th>Routes</Th>
          <Th>In Read only</Th>
        </tr>
      </THead>
      <tbody>
        {scopeRows().map((row) => (
          <tr key={row.scope} id={scopeAnchor(row.scope)} data-scope={row.scope} className="scroll-mt-4">
            <Td>
              <code className="whitespace-nowrap">{row.scope}</code>
            </Td>
            <Td>{row.description}</Td>
            <Td>
              <ul className="m-0 flex list-none flex-col gap-1 p-0">
                {row.routes.map((route) => (
                  <li key={route.name} data-scope-route={route.name}>
                    <Badge tone={route.method === "GET" ? "info" : "success"}>{route.method}</Badge>{" "}
                    <Link href={routeHref(route)}>
                      <code className="break-all">{displayPath(route)}</code>
                    </Link>
                  </li>
                ))}
              </ul>
            </Td>
            <Td>{row.readOnly ? "Yes" : "No"}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
