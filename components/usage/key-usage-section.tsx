import { buttonClasses } from "@/components/ui/button";
import { absoluteTime } from "@/lib/format-time";
import { displayIp } from "@/lib/format-ip";
import type { KeyUsage, RequestLogPage } from "@/lib/usage/queries";
import { RANGE_SPECS } from "@/lib/usage/usage-range";
import { bucketLabels } from "./bucket-label";
import { RequestLog } from "./request-log";
import { RequestLogFilters } from "./request-log-filters";
import { RouteName } from "./route-name";
import { ShareTable } from "./share-table";
import { UsageChart, type ChartBucket } from "./usage-chart";
import { UsageDataTable } from "./usage-data-table";
import { usageCsvHref, type UsageQuery } from "./usage-href";
import { UsageLegend } from "./usage-legend";
import { UsageRangeSwitch } from "./usage-range-switch";

const count = (n: number) => (n === 1 ? "1 request" : `${n.toLocaleString("en")} requests`);

/** A key's usage on its page: the chart and its table, the top routes and IPs, and the request log. */
export function KeyUsageSection({
  keyHref,
  usage,
  log,
  query,
  now,
}: {
  keyHref: string;
  usage: KeyUsage;
  log: RequestLogPage;
  query: UsageQuery;
  now: Date;
}) {
  const spec = RANGE_SPECS[usage.range];
  const rangeText = spec.label.toLowerCase();
  const buckets: ChartBucket[] = usage.buckets.map((bucket) => ({
    ...bucketLabels(bucket.start, spec.bucket),
    "2xx": bucket["2xx"],
    "4xx": bucket["4xx"],
    "5xx": bucket["5xx"],
  }));
  const { totals } = usage;
  const logShortened = usage.buckets[0] && usage.logSince > usage.buckets[0].start;

  return (
    <section aria-labelledby="usage-heading" id="usage" className="mt-10 scroll-mt-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="usage-heading" className="text-lg font-semibold">
          Usage
        </h2>
        <UsageRangeSwitch keyHref={keyHref} query={query} />
      </div>
      <p className="mt-2 text-sm" data-testid="usage-totals">
        {count(totals.total)} in the {rangeText}
        {totals.total > 0 && `: ${totals["2xx"]} 2xx, ${totals["4xx"]} 4xx, ${totals["5xx"]} 5xx`}.{" "}
        <span className="text-zinc-600 dark:text-zinc-400">
          {spec.bucket === "hour" ? "Per hour" : "Per day"}, in UTC.
        </span>
      </p>
      {totals.total > 0 && (
        <div className="mt-3">
          <UsageChart buckets={buckets} />
          <UsageLegend />
          <UsageDataTable
            buckets={buckets}
            caption={`Requests ${spec.bucket === "hour" ? "per hour" : "per day"} in the ${rangeText}, by status class`}
          />
        </div>
      )}

      {totals.total > 0 && (
        <div className="mt-6 grid gap-6 md:grid-cols-2">
          <div>
            <h3 className="font-semibold">Top routes</h3>
            <div className="mt-2">
              <ShareTable
                caption={`Top routes in the ${rangeText}`}
                heading="Route"
                rows={usage.topRoutes}
                render={(route) => <RouteName name={route} />}
                testId="top-routes"
              />
            </div>
          </div>
          <div>
            <h3 className="font-semibold">Top client IPs</h3>
            <div className="mt-2">
              {usage.topIps.length > 0 ? (
                <ShareTable
                  caption={`Top client IPs in the ${rangeText}`}
                  heading="IP address"
                  rows={usage.topIps}
                  render={displayIp}
                  testId="top-ips"
                />
              ) : (
                <p className="text-sm">No requests in the log for this range.</p>
              )}
            </div>
          </div>
        </div>
      )}

      <div id="requests" className="mt-8 scroll-mt-4">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <h3 className="font-semibold">Requests</h3>
          <a href={usageCsvHref(keyHref, query)} className={buttonClasses("secondary")} download>
            Download CSV
          </a>
        </div>
        {logShortened && (
          <p className="mt-1 text-sm text-zinc-600 dark:text-zinc-400">
            The request log and client IPs go back to {absoluteTime(usage.logSince)}: requests are kept that long.
          </p>
        )}
        <div className="mt-3">
          <RequestLogFilters keyHref={keyHref} query={query} />
        </div>
        <div className="mt-4">
          <RequestLog keyHref={keyHref} log={log} query={query} now={now} />
        </div>
      </div>
    </section>
  );
}
