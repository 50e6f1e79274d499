import Link from "next/link";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { errorCatalog } from "@/lib/errors/error-catalog";
import { routeErrors, type PublicRoute } from "@/lib/public-api/routes";
import { CatalogText } from "./catalog-text";

/** The error codes a route can answer with (the same list the gate matrix test holds it to). */
export function RouteErrors({ route }: { route: PublicRoute }) {
  return (
    <Table caption={`Errors of ${route.method} ${route.path}`}>
      <THead>
        <tr>
          <Th>Status</Th>
          <Th>Code</Th>
          <Th>Meaning</Th>
        </tr>
      </THead>
      <tbody>
        {routeErrors(route).map((code) => (
          <tr key={code} data-error-code={code}>
            <Td>{errorCatalog[code].status}</Td>
            <Td>
              <Link href={`/docs/errors#${code}`}>
                <code>{code}</code>
              </Link>
            </Td>
            <Td>
              <CatalogText text={errorCatalog[code].message} />
            </Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
