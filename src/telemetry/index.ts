/**
 * Opt-in observability: OpenTelemetry tracing (Temporal's workflow and activity interceptors, plus
 * deerflow's spans around model and tool calls), the ids every activity log line and span carries,
 * and JSON log lines. Activities and workers only: never import this from workflow code.
 */
export { startTracing, startConfiguredTracing } from './tracing';
export { clientTracingInterceptors } from './client-tracing';
export type { Tracing, TracingOptions } from './tracing';
export { workerTracingOptions, TRACING_WORKFLOW_INTERCEPTOR_MODULE } from './worker-tracing';
export type { WorkerTracingOptions } from './worker-tracing';
export { activityIdsInterceptor } from './activity-ids-interceptor';
export { agentSpansMiddleware, AGENT_SPANS_MIDDLEWARE_NAME } from './agent-spans-middleware';
export type { AgentSpansMiddlewareOptions } from './agent-spans-middleware';
export { inModelCallSpan } from './model-call-span';
export type { ModelCallSpanTarget } from './model-call-span';
export { inToolCallSpan } from './tool-call-span';
export type { ToolCallSpanTarget } from './tool-call-span';
export { inSpan, TRACER_NAME } from './in-span';
export { deerflowIdsOf, idSpanAttributes } from './deerflow-ids';
export type { DeerflowIds } from './deerflow-ids';
export { SPAN_ATTRIBUTES, GEN_AI_OPERATIONS, modelCallSpanName, toolCallSpanName } from './span-attributes';
export { JsonTemporalLogger } from './json-temporal-logger';
export type { JsonTemporalLoggerOptions } from './json-temporal-logger';
