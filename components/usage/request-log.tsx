import Link from "next/link";
import { Pagination } from "@/components/pagination";
import { Badge } from "@/components/ui/badge";
import { Table, Td, Th, THead } from "@/components/ui/table";
import { Timestamp } from "@/components/ui/timestamp";
import { displayIp } from "@/lib/format-ip";
import { statusClass } from "@/lib/usage/event";
import type { RequestLogPage, RequestLogRow } from "@/lib/usage/queries";
import { RouteName } from "./route-name";
import { usageHref, type UsageQuery } from "./usage-href";

const STATUS_TONES = { "2xx": "success", "4xx": "warning", "5xx": "danger" } as const;

function Status({ row }: { row: RequestLogRow }) {
  return (
    <span className="flex flex-col items-start gap-0.5">
      <Badge tone={STATUS_TONES[statusClass(row.status)]}>{row.status}</Badge>
      {row.errorCode && <code className="text-xs break-all">{row.errorCode}</code>}
    </span>
  );
}

function Agent({ value }: { value: string | null }) {
  return value ? (
    <span className="break-all">{value}</span>
  ) : (
    <span className="text-zinc-600 dark:text-zinc-400">None sent</span>
  );
}

// One row per request, newest first. Below lg the table keeps one column and
// each request reads as a card; from lg on: time, request (route and id),
// status, latency and client (IP and user agent).
function RequestRow({ row, now }: { row: RequestLogRow; now: Date }) {
  return (
    <tr data-testid="request-row" data-request-id={row.requestId}>
      <Td className="min-w-0 lg:whitespace-nowrap">
        <Timestamp date={row.createdAt} now={now} compact />
        <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-xs lg:hidden">
          <dt className="font-medium">Route</dt>
          <dd>
            <RouteName name={row.route} />
          </dd>
          <dt className="font-medium">Status</dt>
          <dd>
            <Status row={row} />
          </dd>
          <dt className="font-medium">Latency</dt>
          <dd>{row.latencyMs} ms</dd>
          <dt className="font-medium">IP</dt>
          <dd className="break-all">{displayIp(row.ip)}</dd>
          <dt className="font-medium">User agent</dt>
          <dd>
            <Agent value={row.userAgent} />
          </dd>
          <dt className="font-medium">Request id</dt>
          <dd className="font-mono break-all">{row.requestId}</dd>
        </dl>
      </Td>
      <Td className="hidden lg:table-cell">
        <div data-testid="request-route">
          <RouteName name={row.route} />
        </div>
        <div
          data-testid="request-id"
          className="mt-1 font-mono text-xs whitespace-nowrap text-zinc-600 dark:text-zinc-400"
        >
          {row.requestId}
        </div>
      </Td>
      <Td className="hidden lg:table-cell">
        <Status row={row} />
      </Td>
      <Td className="hidden text-right whitespace-nowrap tabular-nums lg:table-cell">{row.latencyMs} ms</Td>
      <Td className="hidden lg:table-cell">
        <div data-testid="request-ip" className="break-all">
          {displayIp(row.ip)}
        </div>
        <div data-testid="request-agent" className="mt-1 text-xs text-zinc-600 dark:text-zinc-400">
          <Agent value={row.userAgent} />
        </div>
      </Td>
    </tr>
  );
}

export function RequestLog({
  keyHref,
  log,
  query,
  now,
}: {
  keyHref: string;
  log: RequestLogPage;
  query: UsageQuery;
  now: Date;
}) {
  const filtered = Boolean(query.status || query.route);
  if (log.total === 0) {
    return (
      <p className="rounded-md border border-dashed border-zinc-300 p-6 dark:border-zinc-700">
        {filtered ? "No requests match these filters in this range." : "No requests in this range."}
        {filtered && (
          <>
            {" "}
            <Link href={usageHref(keyHref, { usage: query.usage }, "requests")}>Clear filters</Link>
          </>
        )}
      </p>
    );
  }
  return (
    <>
      <Table caption="Requests made with this key, newest first">
        <THead>
          <tr>
            <Th>
              <span className="lg:hidden">Request</span>
              <span className="hidden lg:inline">Time</span>
            </Th>
            <Th className="hidden lg:table-cell">Route and request id</Th>
            <Th className="hidden lg:table-cell">Status</Th>
            <Th className="hidden text-right lg:table-cell">Latency</Th>
            <Th className="hidden lg:table-cell">Client IP and user agent</Th>
          </tr>
        </THead>
        <tbody>
          {log.items.map((row) => (
            <RequestRow key={row.requestId} row={row} now={now} />
          ))}
        </tbody>
      </Table>
      <Pagination
        page={log.page}
        pageCount={log.pageCount}
        href={(page) => usageHref(keyHref, { ...query, page }, "requests")}
      />
    </>
  );
}
