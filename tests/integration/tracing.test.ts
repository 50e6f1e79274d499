// Traces (issue 36): a runtime made with OTEL_EXPORTER_OTLP_ENDPOINT sends
// its spans over OTLP/HTTP to the receiver this file runs. Each public API
// request is one trace: the request's span (kind server), and beneath it one
// span per gate step that did work (lookup, limits, handler); the request's
// log line carries the trace's id beside its request id. The background jobs
// and the action wrapper make traces of their own. A runtime without the
// endpoint traces nothing.
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { db } from "@/lib/db";
import { getEnv } from "@/lib/env";
import { GenerationWorker } from "@/lib/generations/worker";
import { generateApiKey } from "@/lib/keys/format";
import { createKey } from "@/lib/keys/lifecycle";
import { flushLog } from "@/lib/log";
import { createMailJob } from "@/lib/mail/start-mail-job";
import { startMaintenance } from "@/lib/maintenance/start-maintenance";
import { gateServices } from "@/lib/public-api/app-gate";
import { asFetchHandler, createGate } from "@/lib/public-api/gate";
import { createRuntime, type Runtime } from "@/lib/runtime/create-runtime";
import { publishRuntime, runtime } from "@/lib/runtime/runtime";
import { defineAction } from "@/lib/web/define-action";
import { bareAccount } from "../helpers/bare-account";
import { formOf } from "../helpers/next-request";
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from "../helpers/otlp-receiver";
import { queuedGeneration } from "../helpers/queued-generation";

vi.mock("next/headers", async () => (await import("../helpers/next-request")).nextHeaders);
vi.mock("next/navigation", async () => (await import("../helpers/next-request")).nextNavigation);

const SERVER = 2;
const ERROR = 2;

let receiver: OtlpReceiver;
let traced: Runtime;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  traced = createRuntime({ ...getEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_SERVICE_NAME: "keyport-test" });
  await traced.tracing!.ready;
});

afterAll(async () => {
  await traced.close();
  if (traced.provider === "postgres") await traced.gatePool.end();
  await receiver.close();
});

/** Runs `work` and returns it with the JSON log lines it wrote (info lines are gathered: flushed here). */
async function logged<T>(work: () => Promise<T>): Promise<{ result: T; lines: Record<string, unknown>[] }> {
  flushLog();
  const lines: string[] = [];
  const capture = (chunk: string | Uint8Array) => (lines.push(...String(chunk).split("\n").filter(Boolean)), true);
  const out = vi.spyOn(process.stdout, "write").mockImplementation(capture);
  const err = vi.spyOn(console, "error").mockImplementation((line: string) => void lines.push(line));
  try {
    const result = await work();
    flushLog();
    return { result, lines: lines.map((line) => JSON.parse(line) as Record<string, unknown>) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

/** The spans received once every ended span was sent. */
async function received(): Promise<ReceivedSpan[]> {
  await traced.tracing!.flush();
  return receiver.spans;
}

const childrenOf = (spans: ReceivedSpan[], parent: ReceivedSpan) =>
  spans.filter((span) => span.parentSpanId === parent.spanId);

async function keyFor(label: string) {
  const user = await bareAccount(`tracing.${randomUUID()}@example.com`);
  const actor = { userId: user.id, ip: null, userAgent: null };
  return { user, ...(await createKey(actor, { label, environment: "dev", expiresAt: null })) };
}

describe("traces, with OTEL_EXPORTER_OTLP_ENDPOINT set", () => {
  it("make each public API request one trace, with a span per gate step that did work beneath the request's", async () => {
    const { key, secret } = await keyFor("traced");
    const gate = asFetchHandler(createGate(gateServices(traced)));
    const send = (path: string, sent?: string) =>
      gate(new Request(`http://localhost${path}`, sent ? { headers: { authorization: `Bearer ${sent}` } } : {}));
    const before = (await received()).length;
    const { result: responses, lines } = await logged(async () => [
      await send("/api/v1/models", secret),
      await send("/api/v1/models", secret),
      await send("/api/v1/models", generateApiKey("dev")),
      await send(`/api/v1/no-such-route-${randomUUID()}`, secret),
    ]);
    expect(responses.map((response) => response.status)).toEqual([200, 200, 401, 404]);
    const spans = (await received()).slice(before);
    expect(receiver.posts.every((type) => type.startsWith("application/json"))).toBe(true);

    const roots = spans.filter((span) => span.parentSpanId === "");
    expect(roots).toHaveLength(4);
    expect(new Set(spans.map((span) => span.traceId)).size).toBe(4);
    for (const [i, response] of responses.entries()) {
      // X-Request-Id is what it was; the request's span and its log line carry it, the line the trace's id too.
      const requestId = response.headers.get("x-request-id")!;
      expect(requestId).toMatch(/^req_[0-9a-z]{24}$/);
      const root = roots.find((span) => span.attributes["keyport.request_id"] === requestId)!;
      expect(root, `request ${i}`).toMatchObject({ kind: SERVER, service: "keyport-test" });
      expect(root.attributes["http.response.status_code"]).toBe(response.status);
      const line = lines.find((entry) => entry.event === "api.request" && entry.request_id === requestId)!;
      expect(line.trace_id).toBe(root.traceId);
      expect(root.traceId).toMatch(/^[0-9a-f]{32}$/);
    }

    const [ok, again, refused, unknown] = responses.map((response) =>
      roots.find((span) => span.attributes["keyport.request_id"] === response.headers.get("x-request-id"))!,
    );
    for (const root of [ok!, again!]) {
      expect(root.name).toBe("GET /api/v1/models");
      expect(root.attributes).toMatchObject({ "keyport.route": "list_models", "keyport.key_id": key.id });
      expect(root.status).not.toBe(ERROR);
      const steps = childrenOf(spans, root);
      expect(steps.map((span) => span.name).sort()).toEqual(["handler", "limits", "lookup"]);
      expect(steps.every((span) => span.traceId === root.traceId && span.status !== ERROR)).toBe(true);
    }
    // A key no one made: the lookup said why; the request itself answered (a refusal is no failure).
    expect(childrenOf(spans, refused!)).toEqual([
      expect.objectContaining({ name: "lookup", status: ERROR, attributes: { "error.type": "invalid_api_key" } }),
    ]);
    expect(refused!.status).not.toBe(ERROR);
    // No route: no step did any work.
    expect(unknown!.name).toBe("GET");
    expect(childrenOf(spans, unknown!)).toEqual([]);
  });

  it("make each background job's run and each server action a trace of its own", async () => {
    const { user, key } = await keyFor("generations");
    const generationId = await queuedGeneration(user.id, key.id);
    const worker = new GenerationWorker({ db, tracer: traced.tracing });
    const { lines } = await logged(() => worker.drain());

    const maintenance = startMaintenance(3_600_000, undefined, traced.tracing);
    const mail = createMailJob(
      { ...getEnv(), MAIL_DISABLED: "0", MAIL_INTERVAL_SECONDS: 3_600 },
      undefined,
      traced.tracing,
    );
    mail.start();
    try {
      await vi.waitFor(
        async () => {
          const names = (await received()).map((span) => span.name);
          expect(names).toEqual(expect.arrayContaining(["maintenance.run", "mail.run"]));
        },
        { timeout: 10_000 },
      );
    } finally {
      maintenance?.stop();
      mail.stop();
    }

    // Actions on the process's runtime, as Next's side finds it: this file's traced one, for a moment.
    const before = runtime();
    publishRuntime(traced);
    const echo = defineAction({
      access: "public",
      input: z.object({ word: z.string() }),
      run: async ({ input }) => input.word,
    });
    const broken = defineAction({
      access: "public",
      input: z.object({}),
      failureEvent: "tracing_test.failed",
      run: async () => {
        throw new TypeError("broken on purpose");
      },
    });
    try {
      expect(await echo(null, formOf({ word: "hello" }))).toMatchObject({ ok: true, data: "hello" });
      const { result, lines: actionLines } = await logged(() => broken(null, formOf({})));
      expect(result.ok).toBe(false);
      const spans = await received();
      const actions = spans.filter((span) => span.name === "server action");
      expect(actions.map((span) => span.attributes["keyport.action.outcome"])).toEqual(["ok", "refused"]);
      expect(actions[0]).toMatchObject({ parentSpanId: "", attributes: { "keyport.action.access": "public" } });
      expect(actions[1]).toMatchObject({ status: ERROR, attributes: { "error.type": "TypeError" } });
      expect(actionLines.find((line) => line.event === "tracing_test.failed")?.trace_id).toBe(actions[1]!.traceId);
    } finally {
      publishRuntime(before);
    }

    const spans = await received();
    const generation = spans.find(
      (span) => span.name === "generation.process" && span.attributes["keyport.generation_id"] === generationId,
    )!;
    expect(generation).toMatchObject({ parentSpanId: "", attributes: { "keyport.generation_status": "succeeded" } });
    const finished = lines.find((line) => line.event === "generation.finished" && line.generation_id === generationId);
    expect(finished?.trace_id).toBe(generation.traceId);
    const pruned = spans.find((span) => span.name === "maintenance.run")!;
    expect(pruned.attributes["keyport.pruned.sessions"]).toEqual(expect.any(Number));
    expect(spans.find((span) => span.name === "mail.run")!.attributes).toMatchObject({
      "keyport.mail.sent": expect.any(Number),
      "keyport.mail.failed": expect.any(Number),
    });
  });
});

describe("with OTEL_EXPORTER_OTLP_ENDPOINT unset", () => {
  it("nothing is traced, sent or logged as a trace", async () => {
    const untraced = createRuntime({ ...getEnv(), OTEL_EXPORTER_OTLP_ENDPOINT: undefined });
    try {
      expect(untraced.tracing).toBeNull();
      const services = gateServices(untraced);
      expect(services.tracer).toBeUndefined();
      const { secret } = await keyFor("untraced");
      const gate = asFetchHandler(createGate(services));
      const sentBefore = (await received()).length;
      const { result: response, lines } = await logged(() =>
        gate(new Request("http://localhost/api/v1/models", { headers: { authorization: `Bearer ${secret}` } })),
      );
      expect(response.status).toBe(200);
      const line = lines.find((entry) => entry.event === "api.request")!;
      expect(line.request_id).toBe(response.headers.get("x-request-id"));
      expect(line).not.toHaveProperty("trace_id");
      expect((await received()).length).toBe(sentBefore);
    } finally {
      await untraced.close();
      if (untraced.provider === "postgres") await untraced.gatePool.end();
    }
  });
});
