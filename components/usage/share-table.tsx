import type { ReactNode } from "react";
import { Table, Td, Th, THead } from "@/components/ui/table";
import type { Share } from "@/lib/usage/queries";

const percent = new Intl.NumberFormat("en", { style: "percent", maximumFractionDigits: 1 });

/** A small ranking (top routes, top IPs): each value, its count and its share, with a bar. */
export function ShareTable({
  caption,
  heading,
  rows,
  render,
  testId,
}: {
  caption: string;
  heading: string;
  rows: Share[];
  render: (value: string) => ReactNode;
  testId: string;
}) {
  return (
    <Table caption={caption}>
      <THead>
        <tr>
          <Th>{heading}</Th>
          <Th className="text-right">Requests</Th>
          <Th className="text-right">Share</Th>
        </tr>
      </THead>
      <tbody data-testid={testId}>
        {rows.map((row) => (
          <tr key={row.value}>
            <Td className="[overflow-wrap:anywhere]">
              {render(row.value)}
              <div aria-hidden="true" className="mt-1 h-1.5 rounded-full bg-zinc-200 dark:bg-zinc-800">
                <div
                  className="h-full rounded-full bg-indigo-600 dark:bg-indigo-400"
                  style={{ width: `${Math.max(row.share * 100, 1)}%` }}
                />
              </div>
            </Td>
            <Td className="text-right tabular-nums">{row.count}</Td>
            <Td className="text-right tabular-nums">{percent.format(row.share)}</Td>
          </tr>
        ))}
      </tbody>
    </Table>
  );
}
