import "server-only";
import { log } from "../log";
import type { MaybePromise } from "../maybe-promise";

// Traces (OpenTelemetry; docs/operations.md, "Traces"), off unless
// OTEL_EXPORTER_OTLP_ENDPOINT is set. The app's code sees only these few
// types: the SDK and its exporter are loaded by import() in ./otel-tracing.ts
// when the runtime makes a Tracing, which it does only when the endpoint is
// set, so a process without it loads no @opentelemetry module at all
// (tests/integration/tracing-modules.test.ts). Spans are parented explicitly,
// never through an active context: a context manager would put an
// AsyncLocalStorage on every promise of the process (docs/architecture.md,
// "the gate's hot path").

/** Attribute values; an undefined one is left out. */
export type SpanAttributes = Record<string, string | number | boolean | undefined>;

export interface TraceSpan {
  /** The trace's id (32 hex digits), which log lines carry as `trace_id`. */
  readonly traceId: string;
  /** A span beneath this one, started now. */
  child(name: string): TraceSpan;
  set(attributes: SpanAttributes): void;
  /** What the span turned out to be (a request's route is known only after its span began). */
  rename(name: string): void;
  /** Marks it failed, naming what failed: a catalog code or an error's name, never its message. */
  fail(errorType: string): void;
  end(): void;
}

export interface Tracer {
  /** A new trace's root span: undefined while the SDK is still loading, in a process's first moments. */
  start(name: string, kind: "server" | "internal", attributes?: SpanAttributes): TraceSpan | undefined;
}

export interface Tracing extends Tracer {
  /** Settles once the SDK has loaded (or failed to: then nothing is traced, and the log says why). */
  readonly ready: Promise<void>;
  /** Sends every ended span now (tests; the exporter otherwise sends batches every few seconds). */
  flush(): Promise<void>;
  /** Sends what is left and stops (the runtime's close). */
  close(): Promise<void>;
}

export interface TracingSettings {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL. */
  endpoint: string;
  serviceName: string;
}

/** The process's tracing, made by the runtime when the endpoint is set; the SDK loads in the background. */
export function createTracing(settings: TracingSettings): Tracing {
  let loaded: Tracing | undefined;
  const ready = import("./otel-tracing")
    .then((otel) => otel.loadOtelTracing(settings))
    .then(
      (made) => void (loaded = made),
      (error: unknown) => log.error("tracing.unavailable", { error: String((error as Error)?.message ?? error) }),
    );
  return {
    ready,
    start: (name, kind, attributes) => loaded?.start(name, kind, attributes),
    flush: () => ready.then(() => loaded?.flush()),
    close: () => ready.then(() => loaded?.close()),
  };
}

/** What failed, for a span: a catalog code where the error has one (ApiError, DomainError), else its name. */
export function errorType(error: unknown): string {
  const code = (error as { code?: unknown })?.code;
  if (typeof code === "string") return code;
  return error instanceof Error ? error.name : typeof error;
}

/** Runs `work` in a trace of its own (a job's run, a server action) when tracing is on; as it is otherwise. */
export async function inSpan<T>(
  tracer: Tracer | null | undefined,
  name: string,
  work: (span: TraceSpan | undefined) => Promise<T>,
): Promise<T> {
  const span = tracer?.start(name, "internal");
  if (!span) return work(undefined);
  try {
    return await work(span);
  } catch (error) {
    span.fail(errorType(error));
    throw error;
  } finally {
    span.end();
  }
}

/**
 * Runs one step of a traced request in a child span of `parent`: a step that
 * answers at once stays synchronous (lib/maybe-promise.ts), and its span ends
 * when its answer (or its refusal) is there.
 */
export function inChildSpan<T>(parent: TraceSpan, name: string, step: () => MaybePromise<T>): MaybePromise<T> {
  const span = parent.child(name);
  const failed = (error: unknown) => {
    span.fail(errorType(error));
    span.end();
    throw error;
  };
  let result: MaybePromise<T>;
  try {
    result = step();
  } catch (error) {
    return failed(error);
  }
  if (result instanceof Promise) {
    return result.then((value) => {
      span.end();
      return value;
    }, failed);
  }
  span.end();
  return result;
}
