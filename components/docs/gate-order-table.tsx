import { CatalogText } from "@/components/docs/catalog-text";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { ALLOWLIST_BEFORE_SCOPE, GATE_ORDER } from "@/lib/public-api/gate-order";

/** The gate's checks in order, from lib/public-api/gate-order.ts, never typed here. */
export function GateOrderTable() {
  return (
    <>
      <Table caption="The order of the checks: the first failure answers">
        <THead>
          <tr>
            <Th>Step</Th>
            <Th>Check</Th>
            <Th>Answer</Th>
          </tr>
        </THead>
        <tbody>
          {GATE_ORDER.map((step, index) => (
            <tr key={index} data-gate-step={index + 1}>
              <Td>{index + 1}</Td>
              <Td>
                <CatalogText text={step.check} />
              </Td>
              <Td>
                <CatalogText text={step.answer} />
              </Td>
            </tr>
          ))}
        </tbody>
      </Table>
      <p>{ALLOWLIST_BEFORE_SCOPE}</p>
    </>
  );
}
