import { STATUS_CLASSES } from "@/lib/usage/event";
import type { ChartBucket } from "./usage-chart";

/**
 * The chart's numbers as a real table, for screen readers (the chart is
 * hidden from them). Visually hidden: the chart, its tooltip and the totals
 * above it show the same to sighted readers.
 */
export function UsageDataTable({ buckets, caption }: { buckets: ChartBucket[]; caption: string }) {
  return (
    // The wrapper hides it: a table grows to fit its cells whatever width it is given.
    <div className="sr-only">
      <table data-testid="usage-table">
        <caption>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Period</th>
            {STATUS_CLASSES.map((statusClass) => (
              <th key={statusClass} scope="col">
                {statusClass}
              </th>
            ))}
            <th scope="col">Total</th>
          </tr>
        </thead>
        <tbody>
          {buckets.map((bucket) => (
            <tr key={bucket.full}>
              <th scope="row">{bucket.full}</th>
              {STATUS_CLASSES.map((statusClass) => (
                <td key={statusClass}>{bucket[statusClass]}</td>
              ))}
              <td>{bucket["2xx"] + bucket["4xx"] + bucket["5xx"]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
