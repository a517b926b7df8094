import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { Resource } from '@opentelemetry/resources';
import { BatchSpanProcessor, type SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TelemetryConfig } from '../config';

/** Options of {@link startTracing}. */
export interface TracingOptions {
  /** `service.name` of every span. */
  readonly serviceName: string;
  /** OTLP/HTTP collector base URL; spans go to `<url>/v1/traces`. Ignored when `spanProcessor` is given. */
  readonly otlpEndpoint?: string;
  /** Where spans go instead of an OTLP exporter (tests pass an in-memory exporter's processor). */
  readonly spanProcessor?: SpanProcessor;
}

/** The process's tracer provider, as workers need it for workflow spans. */
export interface Tracing {
  /** Receives every span: the process's own and the workflow spans the worker's sink hands over. */
  readonly spanProcessor: SpanProcessor;
  readonly resource: Resource;
  /** Exports what is still buffered. */
  flush(): Promise<void>;
  /** Flushes, stops exporting and unregisters the global provider. */
  shutdown(): Promise<void>;
}

/**
 * Registers a global OpenTelemetry tracer provider (async-context propagation, W3C trace context)
 * that sends spans to an OTLP collector or to `spanProcessor`. One per process: the Temporal
 * interceptors and deerflow's model and tool spans all use the global provider.
 * @throws Error when neither `otlpEndpoint` nor `spanProcessor` is given.
 */
export function startTracing(options: TracingOptions): Tracing {
  const spanProcessor = options.spanProcessor ?? otlpSpanProcessor(options.otlpEndpoint);
  const resource = new Resource({ [ATTR_SERVICE_NAME]: options.serviceName });
  const provider = new NodeTracerProvider({ resource, spanProcessors: [spanProcessor] });
  provider.register();
  return {
    spanProcessor,
    resource,
    flush: () => provider.forceFlush(),
    shutdown: async () => {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

function otlpSpanProcessor(endpoint: string | undefined): SpanProcessor {
  if (endpoint === undefined) throw new Error('startTracing needs otlpEndpoint or spanProcessor');
  return new BatchSpanProcessor(new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }));
}

/**
 * The tracing `telemetry` asks for: OTLP export to `otlp_endpoint` under `service_name`, or null
 * when no endpoint is configured (tracing is opt-in).
 */
export function startConfiguredTracing(telemetry: Pick<TelemetryConfig, 'otlp_endpoint' | 'service_name'>): Tracing | null {
  if (telemetry.otlp_endpoint === null) return null;
  return startTracing({ serviceName: telemetry.service_name, otlpEndpoint: telemetry.otlp_endpoint });
}
