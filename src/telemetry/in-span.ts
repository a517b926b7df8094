import { SpanKind, SpanStatusCode, trace, type Attributes, type Span } from '@opentelemetry/api';

/** Instrumentation scope of deerflow's own spans. */
export const TRACER_NAME = 'deerflow';

/**
 * Runs `fn` inside a new active span (a child of whatever span is active: the activity's, when the
 * tracing interceptors run). A throw marks the span failed and is rethrown. Without
 * {@link startTracing} the global tracer is a no-op, so this costs next to nothing when tracing is off.
 */
export function inSpan<T>(name: string, attributes: Attributes, fn: (span: Span) => Promise<T>): Promise<T> {
  return trace.getTracer(TRACER_NAME).startActiveSpan(name, { kind: SpanKind.INTERNAL, attributes }, async (span) => {
    try {
      return await fn(span);
    } catch (err) {
      span.recordException(err instanceof Error ? err : String(err));
      span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
      throw err;
    } finally {
      span.end();
    }
  });
}
