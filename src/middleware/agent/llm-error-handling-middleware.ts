import { AIMessage } from '@langchain/core/messages';
import { isGraphBubbleUp } from '@langchain/langgraph';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

import { abortableDelay, abortReason } from '../../models/abortable-delay';
import {
  DEFAULT_LLM_RETRY_POLICY,
  classifyLlmError,
  isCancellationError,
  llmErrorFallback,
  llmRetryEvent,
  maxAttemptsFor,
  retryDelayMs,
  type LlmRetryEvent,
  type LlmRetryPolicy,
} from '../llm-error-handling';

/** Name the LLM error handling middleware registers under. */
export const LLM_ERROR_HANDLING_MIDDLEWARE_NAME = 'LLMErrorHandlingMiddleware';

/**
 * Waits `ms` milliseconds, rejecting with the abort reason as soon as `signal` aborts. The
 * middleware also stops waiting on abort by itself, so a sleep that ignores the signal only
 * costs a timer, never a late retry.
 */
export type LlmRetrySleep = (ms: number, signal: AbortSignal | undefined) => Promise<void>;

const delayMs = z.number().int().min(0).max(600_000);
const OptionsSchema = z
  .object({
    maxAttempts: z.number().int().min(1).max(20).default(DEFAULT_LLM_RETRY_POLICY.maxAttempts),
    baseDelayMs: delayMs.default(DEFAULT_LLM_RETRY_POLICY.baseDelayMs),
    capDelayMs: delayMs.default(DEFAULT_LLM_RETRY_POLICY.capDelayMs),
    burstBaseDelayMs: delayMs.default(DEFAULT_LLM_RETRY_POLICY.burstBaseDelayMs),
    sleep: z.custom<LlmRetrySleep>((v) => typeof v === 'function').optional(),
  })
  .strict();

/** Options of {@link llmErrorHandlingMiddleware}; every field is optional (defaults: SPEC §6.8). */
export type LlmErrorHandlingMiddlewareOptions = z.input<typeof OptionsSchema>;

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted === true) throw abortReason(signal);
}

/** `sleep(ms)`, cut short by `signal`: the abort wins even over a sleep that ignores it. */
async function waitUnlessAborted(sleep: LlmRetrySleep, ms: number, signal: AbortSignal | undefined): Promise<void> {
  throwIfAborted(signal);
  if (signal === undefined) return sleep(ms, signal);
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<never>((_, reject) => {
    onAbort = () => reject(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    await Promise.race([sleep(ms, signal), aborted]);
  } finally {
    if (onAbort !== undefined) signal.removeEventListener('abort', onAbort);
  }
}

/** How {@link callWithLlmRetries} retries one model call. */
export interface LlmRetryOptions {
  readonly policy: LlmRetryPolicy;
  readonly sleep: LlmRetrySleep;
  /** The run's abort signal: a cancelled run stops retrying at once. */
  readonly signal: AbortSignal | undefined;
  /** Errors that are control flow, not failures (rethrown as they are). */
  readonly isControlFlow?: (err: unknown) => boolean;
  /** Told before each wait. */
  readonly onRetry?: (event: LlmRetryEvent) => void;
}

/**
 * One model call with the SPEC §6.8 policy: transient failures retried with capped exponential
 * backoff, and a final failure RETURNED as the fallback `AIMessage` (`error_fallback: true`, the
 * provider's reason and message) instead of thrown. Cancellation is always rethrown. Shared by the
 * subagent middleware and the lead's model step, so both fail the same way.
 */
export async function callWithLlmRetries<T>(call: () => Promise<T> | T, options: LlmRetryOptions): Promise<T | AIMessage> {
  const { signal } = options;
  for (let attempt = 1; ; attempt += 1) {
    throwIfAborted(signal);
    try {
      return await call();
    } catch (err) {
      if (signal?.aborted === true || options.isControlFlow?.(err) === true || isCancellationError(err)) throw err;
      const classification = classifyLlmError(err);
      const waitMs = retryDelayMs(attempt, classification, options.policy);
      if (waitMs === null) {
        const fallback = llmErrorFallback(classification);
        return new AIMessage({ content: fallback.content, additional_kwargs: { ...fallback.additional_kwargs } });
      }
      options.onRetry?.(llmRetryEvent(attempt, maxAttemptsFor(classification.reason, options.policy), waitMs, classification.reason));
      await waitUnlessAborted(options.sleep, waitMs, signal);
    }
  }
}

function emitRetryEvent(writer: unknown, event: LlmRetryEvent): void {
  if (typeof writer !== 'function') return;
  try {
    (writer as (chunk: LlmRetryEvent) => void)(event);
  } catch {
    // A broken stream consumer must not turn a recoverable model error into a failed run.
  }
}

/**
 * Retries transient model failures with capped exponential backoff and, once a call finally
 * fails, RETURNS a fallback `AIMessage` carrying `additional_kwargs.error_fallback: true` (plus
 * `error_type`, `error_reason`, `error_detail`) instead of throwing, so the run ends with an
 * answer the executor recognizes as failure (SPEC §6.8, §2.8). Emits an `llm_retry` custom event
 * before each wait.
 *
 * Waits follow the run's abort signal (`runtime.signal`): a cancelled or timed-out run stops
 * retrying at once. Cancellation (abort, Temporal `CancelledFailure`) and LangGraph bubble-up
 * signals are re-thrown, never converted.
 * @throws ZodError for unknown or out-of-range options
 */
export function llmErrorHandlingMiddleware(options: LlmErrorHandlingMiddlewareOptions = {}) {
  const { sleep = abortableDelay, ...policy } = OptionsSchema.parse(options);
  const retryPolicy: LlmRetryPolicy = policy;
  return createMiddleware({
    name: LLM_ERROR_HANDLING_MIDDLEWARE_NAME,
    wrapModelCall: (request, handler) =>
      callWithLlmRetries(() => handler(request), {
        policy: retryPolicy,
        sleep,
        signal: request.runtime.signal,
        isControlFlow: isGraphBubbleUp,
        onRetry: (event) => emitRetryEvent(request.runtime.writer, event),
      }),
  });
}
