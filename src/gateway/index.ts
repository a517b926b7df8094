/** The HTTP API + SSE over runs and their events (see ARCHITECTURE.md in this folder). */
export { buildGatewayApp, MAX_PARAM_LENGTH } from './app';
export { assertBindable, DEFAULT_GATEWAY_USER, isLoopbackHost, resolveGatewayAuth } from './auth';
export type { Caller, GatewayAuth } from './auth';
export {
  GatewayError,
  GatewayErrorCode,
  GatewaySetupError,
  GatewaySetupErrorCode,
  HTTP_STATUS,
  isGatewayError,
  isGatewaySetupError,
} from './errors';
export type { ErrorBody } from './errors';
export { batchPath } from './batch-lookup';
export { BATCH_BODY_LIMIT_BYTES } from './batches-routes';
export type { BatchItemsPage, BatchResponse, CancelBatchResponse, StartBatchResponse } from './batches-routes';
export { eventJson, tailRunEvents } from './event-tail';
export type { EventJson, TailEnd, TailOptions } from './event-tail';
export { STREAM_RETRY_AFTER_SECONDS } from './events-routes';
export type { EventsPage, StreamEnd } from './events-routes';
export { DEFAULT_HEARTBEAT_MS, DEFAULT_MAX_STREAMS_PER_CALLER, DEFAULT_STREAM_POLL_MAX_MS, DEFAULT_STREAM_POLL_MS } from './gateway-deps';
export type { GatewayDeps } from './gateway-deps';
export { checkRequestOrigin, isLoopbackHostHeader, isLoopbackOrigin, resolveOriginPolicy } from './request-origin';
export type { OriginHeaders, OriginPolicy } from './request-origin';
export { runPath } from './runs-routes';
export type { StartRunResponse } from './runs-routes';
export { startGateway } from './server';
export type { GatewayServer, StartGatewayOptions } from './server';
export { formatSse } from './sse';
export type { SseMessage } from './sse';
export { nextPollPause } from './stream-backoff';
export type { PollBackoff } from './stream-backoff';
export { DEFAULT_BATCH_ITEMS_LIMIT, MAX_EVENTS_LIMIT } from './validation';
