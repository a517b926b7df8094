import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  OpenTelemetryActivityOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry';
import type { ClientInterceptors } from '@temporalio/client';
import type { ActivityInterceptorsFactory, WorkerOptions } from '@temporalio/worker';
import { clientTracingInterceptors } from './client-tracing';
import type { Tracing } from './tracing';

/**
 * The workflow interceptor module of the Temporal tracing package. It must be bundled into the
 * workflow code (a prebuilt bundle ignores `interceptors.workflowModules`), so a traced worker uses
 * its own bundle.
 */
export const TRACING_WORKFLOW_INTERCEPTOR_MODULE = require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors');

/** What a worker adds when tracing is on: activity spans, and the sink workflow spans leave the sandbox through. */
export interface WorkerTracingOptions {
  readonly activityInterceptors: ActivityInterceptorsFactory[];
  /** For the client activities get (`Context.client`): their signals and queries join the activity's trace. */
  readonly clientInterceptors: ClientInterceptors;
  readonly sinks: NonNullable<WorkerOptions['sinks']>;
}

/**
 * Worker options for tracing: a `RunActivity:<type>` span around every activity (child of the
 * workflow's `StartActivity` span through the activity headers), traced signals and queries from
 * activities (task progress), and the `exporter` sink that hands the workflow spans made in the
 * sandbox to the process's span processor.
 */
export function workerTracingOptions(tracing: Tracing): WorkerTracingOptions {
  return {
    activityInterceptors: [
      (ctx) => ({
        inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
        outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
      }),
    ],
    clientInterceptors: clientTracingInterceptors(),
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}
