// Prometheus metrics (issue 36): a runtime made with METRICS_PORT serves them
// on a listener of its own. A scripted mix (answers, refusals, a revocation,
// a mail the SMTP server refuses, a usage write the database refuses) is
// scraped and each counter read back with the value the script implies. The
// listener serves /metrics only and refuses a key like every path off the
// public API.
import { randomUUID } from "node:crypto";
import { createServer as createNetServer, type AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { dbProvider, db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import type { CachedKeyLookup } from "@/lib/keys/key-cache";
import { createKey, revokeKey } from "@/lib/keys/lifecycle";
import { queueMail } from "@/lib/mail/outbox";
import { gateServices } from "@/lib/public-api/app-gate";
import { asFetchHandler, createGate } from "@/lib/public-api/gate";
import { createRuntime, type Runtime } from "@/lib/runtime/create-runtime";
import { bareAccount } from "../helpers/bare-account";
import { queuedGeneration } from "../helpers/queued-generation";
import { parseMetrics, sampleValue, type Sample } from "../helpers/prometheus-text";

// The mail job reads SMTP_URL through getEnv(): here each call reads process.env, so it finds the refusing server.
vi.mock("@/lib/env", async () => {
  const { parseEnv } = await vi.importActual<typeof import("@/lib/env-schema")>("@/lib/env-schema");
  return { getEnv: () => parseEnv(process.env) };
});

async function freePort(): Promise<number> {
  const server = createNetServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An SMTP server that refuses every recipient: the mail job's send fails for good. */
const refusing = new SMTPServer({
  authOptional: true,
  disabledCommands: ["STARTTLS"],
  logger: false,
  onRcptTo(_address, _session, callback) {
    callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
  },
});

let rt: Runtime;
let metricsUrl: string;

beforeAll(async () => {
  await new Promise<void>((resolve) => refusing.listen(0, "127.0.0.1", resolve));
  process.env.SMTP_URL = `smtp://127.0.0.1:${(refusing.server.address() as AddressInfo).port}`;
  rt = createRuntime({
    ...getEnv(),
    METRICS_PORT: await freePort(),
    METRICS_HOST: "127.0.0.1",
    MAIL_DISABLED: "0",
    MAIL_INTERVAL_SECONDS: 3600,
  });
  await rt.startMetrics();
  const { host, port } = await rt.metricsListener!.address;
  metricsUrl = `http://${host}:${port}`;
});

afterAll(async () => {
  rt.mailJob.stop();
  await rt.metricsListener?.close();
  await rt.instance?.close();
  delete process.env.SMTP_URL;
  await new Promise<void>((resolve) => refusing.close(() => resolve()));
});

/** The runtime's key cache's own counts (the runtime gives the gate a cached lookup). */
const cacheStats = () => (rt.keys as CachedKeyLookup).stats;

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${metricsUrl}/metrics`);
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toContain("text/plain");
  return parseMetrics(await response.text());
}

describe("GET /metrics on the metrics listener", () => {
  it("counts the public API's answers, refusals, cache and revocation, usage, mail and the process", async () => {
    const user = await bareAccount(`metrics.${randomUUID()}@example.com`);
    const actor = { userId: user.id, ip: null, userAgent: null };
    const { key, secret } = await createKey(actor, { label: "metered", environment: "dev", expiresAt: null });
    if (rt.instance) {
      rt.instance.start();
      await vi.waitFor(() => expect(rt.instance!.trusted()).toBe(true), { timeout: 10_000 });
    }
    const gate = asFetchHandler(createGate(gateServices(rt)));
    const send = async (path: string, secretSent?: string) =>
      (
        await gate(
          new Request(
            `http://localhost${path}`,
            secretSent ? { headers: { authorization: `Bearer ${secretSent}` } } : {},
          ),
        )
      ).status;

    // Before any request: the gate's series do not exist yet, and the process's do (the scrape can see both kinds).
    const before = await scrape();
    expect(sampleValue(before, "keyport_api_requests_total", { route: "list_models" })).toBeUndefined();
    expect(sampleValue(before, "nodejs_heap_size_used_bytes")).toBeGreaterThan(0);
    expect(sampleValue(before, "nodejs_eventloop_lag_seconds")).toBeGreaterThanOrEqual(0);

    for (let i = 0; i < 3; i++) expect(await send("/api/v1/models", secret)).toBe(200);
    expect(await send("/api/v1/models")).toBe(401);
    expect(await send(`/api/v1/no-such-route-${randomUUID()}`, secret)).toBe(404);
    await revokeKey(actor, key.id, null);
    const fence = await rt.confirmChange();
    expect(await send("/api/v1/models", secret)).toBe(401);

    // The usage of the four requests that found the key (three answered, one revoked) is written; then a write the database refuses (an event
    // whose request id is already stored) drops its one request.
    await rt.usage.flush();
    const written = await db.usageEvent.findFirstOrThrow({ where: { userId: user.id } });
    rt.usage.record({ ...written, userAgent: written.userAgent ?? null, touchesKey: true });
    await rt.usage.flush();

    // A generation job waiting for a worker (none runs here).
    await queuedGeneration(user.id, key.id);

    // A mail the SMTP server refuses: queued, then given up on by this instance's job.
    const to = `metrics.${randomUUID()}@example.com`;
    await queueMail(db, { kind: "account_exists", subject: to, to, data: { email: to } });
    const queued = await scrape();
    expect(sampleValue(queued, "keyport_mail_outbox_queued")).toBe(1);
    expect(sampleValue(queued, "keyport_mail_outbox_oldest_age_seconds")).toBeGreaterThanOrEqual(0);
    expect(sampleValue(queued, "keyport_mail_outbox_failed")).toBe(0);
    rt.mailJob.start();
    // The job also queues the notices due (about the new key, say): every message it tried is refused.
    await vi.waitFor(
      async () => {
        const samples = await scrape();
        expect(sampleValue(samples, "keyport_mail_outbox_queued")).toBe(0);
        expect(sampleValue(samples, "keyport_mail_send_failures_total")).toBeGreaterThanOrEqual(1);
      },
      { timeout: 10_000 },
    );
    const refused = await db.mailMessage.count({ where: { sentAt: null, error: { not: null } } });
    expect(await db.mailMessage.count({ where: { recipient: to, sentAt: null, error: { not: null } } })).toBe(1);
    const after = await scrape();
    const value = (name: string, labels: Record<string, string> = {}) => sampleValue(after, name, labels);
    expect(value("keyport_api_requests_total", { route: "list_models", status_class: "2xx" })).toBe(3);
    expect(value("keyport_api_requests_total", { route: "list_models", status_class: "4xx" })).toBe(2);
    expect(value("keyport_api_requests_total", { route: "unknown", status_class: "4xx" })).toBe(1);
    expect(value("keyport_api_request_duration_seconds_count", { route: "list_models" })).toBe(5);
    expect(value("keyport_api_request_duration_seconds_bucket", { route: "list_models", le: "10" })).toBe(5);
    // The finest bucket exists: a 100 µs answer can be told from a 250 µs one.
    expect(value("keyport_api_request_duration_seconds_bucket", { route: "list_models", le: "0.0001" })).toBeDefined();
    expect(value("keyport_api_refusals_total", { code: "missing_api_key" })).toBe(1);
    expect(value("keyport_api_refusals_total", { code: "not_found" })).toBe(1);
    expect(value("keyport_api_refusals_total", { code: "revoked_api_key" })).toBe(1);
    // The cache: its own counts, with hits (the second and third request) and misses (the first, and after the revocation).
    expect(value("keyport_key_cache_lookups_total", { result: "hit" })).toBe(cacheStats().hits);
    expect(value("keyport_key_cache_lookups_total", { result: "miss" })).toBe(cacheStats().misses);
    expect(cacheStats().hits).toBeGreaterThanOrEqual(2);
    expect(cacheStats().misses).toBeGreaterThanOrEqual(1);
    // Usage: the four requests written, the refused write's one request dropped for that reason, nothing waiting.
    expect(value("keyport_usage_events_written_total")).toBe(4);
    expect(value("keyport_usage_events_dropped_total", { reason: "write_failed" })).toBe(1);
    expect(value("keyport_usage_events_dropped_total", { reason: "buffer_full" })).toBe(0);
    expect(value("keyport_usage_buffer_depth")).toBe(0);
    // Mail: every refused message is given up on, each one a failed send here; nothing waits, nothing was sent.
    expect(value("keyport_mail_send_failures_total")).toBe(refused);
    expect(value("keyport_mail_outbox_failed")).toBe(refused);
    expect(value("keyport_mail_outbox_queued")).toBe(0);
    expect(value("keyport_mail_sent_total")).toBe(0);
    // Generation jobs are counted in the database, whoever queued them (other files of this worker may have left
    // some): the gauge says what the table says, and this test's own queued job is among them.
    for (const status of ["queued", "running", "failed"]) {
      expect(value("keyport_generations", { status })).toBe(await db.generation.count({ where: { status } }));
    }
    expect(value("keyport_generations", { status: "queued" })).toBeGreaterThanOrEqual(1);

    if (dbProvider() === "postgres") {
      // The revocation's fence, raised here and acknowledged by this instance's listener; the counters' round trips
      // to PostgreSQL (one per turn's batch: at least the three answered requests' turns), and the pools.
      expect(fence).toMatchObject({ confirmed: 1, total: 1 });
      expect(value("keyport_fences_raised_total")).toBe(1);
      expect(value("keyport_fence_unconfirmed_instances_total")).toBe(0);
      expect(value("keyport_fence_acknowledgements_total")).toBe(1);
      expect(value("keyport_instance_lease_losses_total")).toBe(0);
      expect(value("keyport_rate_limit_store_round_trips_total", { store: "postgres" })).toBeGreaterThanOrEqual(3);
      expect(value("keyport_rate_limit_store_errors_total", { store: "postgres" })).toBe(0);
      expect(value("keyport_db_pool_clients", { pool: "orm", state: "in_use" })).toBeGreaterThanOrEqual(0);
      expect(value("keyport_db_pool_clients", { pool: "gate", state: "idle" })).toBeGreaterThan(0);
    } else {
      // SQLite: one instance, no fences or leases; the counters are in process (no round trips); no pools.
      expect(fence).toBeNull();
      expect(value("keyport_fences_raised_total")).toBe(0);
      expect(value("keyport_fence_acknowledgements_total")).toBe(0);
      expect(value("keyport_instance_lease_losses_total")).toBe(0);
      expect(value("keyport_rate_limit_store_round_trips_total", { store: "postgres" })).toBeUndefined();
      expect(after.some((sample) => sample.name === "keyport_db_pool_clients")).toBe(false);
    }
  });

  it("serves /metrics only, and refuses a key in either header form with 403 api_key_not_allowed", async () => {
    const key = `sk_dev_${"a".repeat(40)}`;
    for (const headers of [{ authorization: `Bearer ${key}` }, { "x-api-key": key }] as Record<string, string>[]) {
      const refused = await fetch(`${metricsUrl}/metrics`, { headers });
      expect(refused.status).toBe(403);
      const body = (await refused.json()) as { error: { code: string } };
      expect(body.error.code).toBe("api_key_not_allowed");
    }
    // Nor in the URL (an attack review: it was served), as sent or percent-encoded.
    for (const query of [`?key=${key}`, `?x=${key.replace("s", "%73")}`, `?${key}`]) {
      const refused = await fetch(`${metricsUrl}/metrics${query}`);
      expect(refused.status, query).toBe(403);
      expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("api_key_not_allowed");
    }
    // The control: the same request without the key is served, with a query too.
    expect((await fetch(`${metricsUrl}/metrics`)).status).toBe(200);
    expect((await fetch(`${metricsUrl}/metrics?x=sk_`)).status).toBe(200);
    for (const path of ["/api/v1/models", "/healthz", "/readyz", "/", "/metrics/x"]) {
      const response = await fetch(`${metricsUrl}${path}`);
      expect(response.status, path).toBe(404);
      expect(((await response.json()) as { error: { code: string } }).error.code).toBe("not_found");
    }
    const posted = await fetch(`${metricsUrl}/metrics`, { method: "POST" });
    expect(posted.status).toBe(405);
    expect(posted.headers.get("allow")).toBe("GET, HEAD");
  });

  it("is off without METRICS_PORT: no metrics are kept and the gate is built without them", async () => {
    const plain = createRuntime({ ...getEnv(), METRICS_PORT: undefined });
    expect(plain.metrics).toBeNull();
    expect(gateServices(plain).metrics).toBeUndefined();
    await plain.startMetrics();
    expect(plain.metricsListener).toBeNull();
  });
});
