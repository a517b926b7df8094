import { OpenTelemetryWorkflowClientInterceptor } from '@temporalio/interceptors-opentelemetry';
import type { ClientInterceptors } from '@temporalio/client';

/**
 * Client interceptors for tracing: starting, signalling or querying a workflow makes a span and
 * passes its context in the workflow headers, so a run's workflow spans join the trace of whoever
 * started it (the CLI, the gateway request).
 */
export function clientTracingInterceptors(): ClientInterceptors {
  return { workflow: [new OpenTelemetryWorkflowClientInterceptor()] };
}
