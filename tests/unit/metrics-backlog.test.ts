// The shared queues' gauges when the database goes away (an attack review):
// they keep the last values read, not 0, so a backlog's alert does not clear
// during an outage, and keyport_backlog_read_ok says they are not current.
import { describe, expect, it, vi } from "vitest";
import type { Backlog } from "@/lib/metrics/backlog";
import { loadMetrics, NO_SOURCES } from "@/lib/metrics/registry";
import { parseMetrics, sampleValue } from "../helpers/prometheus-text";

const backlog: Backlog = {
  mail: { queued: 7, failed: 2, oldestQueuedSeconds: 900 },
  generations: { queued: 3, running: 1, failed: 0 },
};

describe("the shared queues' gauges", () => {
  it("keep their last values while the database does not answer, and say so", async () => {
    let up = true;
    const metrics = await loadMetrics({
      ...NO_SOURCES,
      backlog: () => (up ? Promise.resolve(backlog) : Promise.reject(new Error("connection refused"))),
    });
    const scrape = async () => parseMetrics(await metrics.registry.metrics());

    const read = await scrape();
    expect(sampleValue(read, "keyport_backlog_read_ok")).toBe(1);
    expect(sampleValue(read, "keyport_mail_outbox_oldest_age_seconds")).toBe(900);

    up = false;
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const stale = await scrape();
    warn.mockRestore();
    expect(sampleValue(stale, "keyport_backlog_read_ok")).toBe(0);
    expect(sampleValue(stale, "keyport_mail_outbox_queued")).toBe(7);
    expect(sampleValue(stale, "keyport_mail_outbox_oldest_age_seconds")).toBe(900);
    expect(sampleValue(stale, "keyport_generations", { status: "queued" })).toBe(3);

    up = true;
    expect(sampleValue(await scrape(), "keyport_backlog_read_ok")).toBe(1);
  });
});
