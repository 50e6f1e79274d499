import "server-only";
import type * as OtelApi from "@opentelemetry/api";
import type { Span, Tracer as OtelTracer } from "@opentelemetry/api";
import type { SpanAttributes, TraceSpan, Tracing, TracingSettings } from "./tracing";

// The OpenTelemetry side of lib/tracing/tracing.ts, reached only through its
// import() when OTEL_EXPORTER_OTLP_ENDPOINT is set. The packages are imported
// here with import() too, never statically: a bundler puts a module's static
// imports of external packages at the top of the bundle (esbuild does for the
// gate's), and they would load with it whether tracing is on or not.

type Api = typeof OtelApi;

/** Where OTLP/HTTP sends traces: the signal's path under the base URL, as the OpenTelemetry specification says. */
export function tracesUrl(endpoint: string): string {
  return `${endpoint.replace(/\/+$/, "")}/v1/traces`;
}

function defined(attributes: SpanAttributes) {
  const values: Record<string, string | number | boolean> = {};
  for (const name in attributes) {
    const value = attributes[name];
    if (value !== undefined) values[name] = value;
  }
  return values;
}

/** One of our spans over one of the SDK's. */
class OtelSpan implements TraceSpan {
  constructor(
    private readonly span: Span,
    private readonly tracer: OtelTracer,
    private readonly api: Api,
  ) {}

  get traceId() {
    return this.span.spanContext().traceId;
  }

  child(name: string): TraceSpan {
    const parent = this.api.trace.setSpan(this.api.ROOT_CONTEXT, this.span);
    return new OtelSpan(
      this.tracer.startSpan(name, { kind: this.api.SpanKind.INTERNAL }, parent),
      this.tracer,
      this.api,
    );
  }

  set(attributes: SpanAttributes) {
    this.span.setAttributes(defined(attributes));
  }

  rename(name: string) {
    this.span.updateName(name);
  }

  fail(errorType: string) {
    this.span.setAttribute("error.type", errorType);
    this.span.setStatus({ code: this.api.SpanStatusCode.ERROR });
  }

  end() {
    this.span.end();
  }
}

/**
 * A tracer provider of this process's own, exporting in batches over
 * OTLP/HTTP with JSON bodies (the exporter's default). It is not registered as
 * the global provider: Next's built-in instrumentation, which looks for one,
 * stays off, and nothing reaches these spans but through the runtime. The
 * SDK still reads the standard OTEL_* variables it knows (the sampler,
 * OTEL_TRACES_SAMPLER; the exporter's headers, OTEL_EXPORTER_OTLP_HEADERS).
 */
export async function loadOtelTracing(settings: TracingSettings): Promise<Tracing> {
  const [api, sdk, { OTLPTraceExporter }, { resourceFromAttributes }] = await Promise.all([
    import("@opentelemetry/api"),
    import("@opentelemetry/sdk-trace-base"),
    import("@opentelemetry/exporter-trace-otlp-http"),
    import("@opentelemetry/resources"),
  ]);
  const exporter = new OTLPTraceExporter({ url: tracesUrl(settings.endpoint) });
  const provider = new sdk.BasicTracerProvider({
    resource: resourceFromAttributes({ "service.name": settings.serviceName }),
    spanProcessors: [new sdk.BatchSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer("keyport");
  const kinds = { server: api.SpanKind.SERVER, internal: api.SpanKind.INTERNAL };
  return {
    ready: Promise.resolve(),
    start(name, kind, attributes = {}) {
      const span = tracer.startSpan(name, { kind: kinds[kind], root: true, attributes: defined(attributes) });
      return new OtelSpan(span, tracer, api);
    },
    flush: () => provider.forceFlush(),
    close: () => provider.shutdown(),
  };
}
