import type { Client } from '@temporalio/client';
import type { DeerFlowClient } from '../client';
import type { RunEventStore } from '../store';
import type { GatewayAuth } from './auth';

/** Default pause between store reads of an SSE stream that has caught up (and just read rows). */
export const DEFAULT_STREAM_POLL_MS = 500;
/** Default longest pause of an idle SSE stream (`gateway.stream_poll_max_ms`). */
export const DEFAULT_STREAM_POLL_MAX_MS = 5_000;
/** Default number of SSE streams one caller may hold open (`gateway.max_streams_per_caller`). */
export const DEFAULT_MAX_STREAMS_PER_CALLER = 8;
/** Default interval of SSE heartbeat comments. */
export const DEFAULT_HEARTBEAT_MS = 15_000;

/** What the gateway needs: injected, so tests and `deerflow serve` wire the same app. */
export interface GatewayDeps {
  /** Describe, cancel and visibility queries. */
  readonly temporal: Client;
  /** Starting runs and batches (claiming their threads), thread owners, `state` queries, batch records and items. */
  readonly deerflow: Pick<
    DeerFlowClient,
    'startRun' | 'getState' | 'cancelTask' | 'extendTask' | 'answer' | 'startBatch' | 'getBatch' | 'getBatchState' | 'listBatchItems' | 'exportBatchItems' | 'cancelBatch' | 'threadOwner'
  >;
  readonly events: RunEventStore;
  readonly auth: GatewayAuth;
  /**
   * `gateway.allowed_origins`: browser origins accepted with tokens (loopback origins always are;
   * without tokens only loopback ones). @default []
   */
  readonly allowedOrigins?: readonly string[];
  /** @default {@link DEFAULT_STREAM_POLL_MS} */
  readonly streamPollMs?: number;
  /** Longest pause of an idle stream; pauses double from `streamPollMs` up to it. @default {@link DEFAULT_STREAM_POLL_MAX_MS} */
  readonly streamPollMaxMs?: number;
  /** Open streams per caller; one more is a 429. @default {@link DEFAULT_MAX_STREAMS_PER_CALLER} */
  readonly maxStreamsPerCaller?: number;
  /** @default {@link DEFAULT_HEARTBEAT_MS} */
  readonly heartbeatMs?: number;
  /** Where unexpected (500) errors are reported. @default stderr */
  readonly log?: (line: string) => void;
}
