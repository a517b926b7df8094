import { CANCELLED_FAILURE_NAME } from '../contracts';

/**
 * LLM error handling (SPEC §6.8), the pure part: classify a failed model call, decide whether and
 * how long to wait before retrying it, and build the fallback message returned once retries are
 * exhausted. Errors are read duck-typed (`status`, `name`, `message`, `cause`), so provider SDK
 * errors, scripted ones and LangChain's `MiddlewareError` wrappers are all understood.
 */

/** HTTP statuses a retry may cure. */
export const RETRYABLE_STATUSES: readonly number[] = [408, 409, 425, 429, 500, 502, 503, 504];

/** Why a model call failed, as reported in `error_reason`. */
export const LlmErrorReason = {
  Quota: 'quota',
  Auth: 'auth',
  BurstRate: 'burst_rate',
  Busy: 'busy',
  Transient: 'transient',
  Generic: 'generic',
} as const;
/** Union of {@link LlmErrorReason} values. */
export type LlmErrorReason = (typeof LlmErrorReason)[keyof typeof LlmErrorReason];

/** Retry timing. All delays are milliseconds. */
export interface LlmRetryPolicy {
  /** Model calls in total, the first included. @default 3 */
  readonly maxAttempts: number;
  /** First backoff; it doubles per retry. @default 1000 */
  readonly baseDelayMs: number;
  /** Longest single wait. @default 8000 */
  readonly capDelayMs: number;
  /** First backoff after a burst-rate rejection. @default 5000 */
  readonly burstBaseDelayMs: number;
}

/** The policy of SPEC §6.8. */
export const DEFAULT_LLM_RETRY_POLICY: LlmRetryPolicy = { maxAttempts: 3, baseDelayMs: 1000, capDelayMs: 8000, burstBaseDelayMs: 5000 };
/** A burst-rate rejection is retried at most once (two attempts), whatever `maxAttempts` says. */
export const BURST_RATE_MAX_ATTEMPTS = 2;

/** What {@link classifyLlmError} found out about a failed call. */
export interface LlmErrorClassification {
  readonly reason: LlmErrorReason;
  readonly retryable: boolean;
  /** HTTP status of the provider response, when the error carries one. */
  readonly status: number | null;
  /** Class name of the underlying error (`error_type`). */
  readonly errorType: string;
  /** Its message, or its class name when the message is blank (`error_detail`). */
  readonly detail: string;
  /** Wait the provider asked for (`retry-after-ms` / `retry-after` seconds), if any. */
  readonly retryAfterMs: number | null;
}

const QUOTA_PATTERNS = ['insufficient_quota', 'quota', 'billing', 'credit', 'payment'];
const AUTH_PATTERNS = ['authentication', 'unauthorized', 'invalid api key', 'invalid_api_key', 'incorrect api key', 'permission', 'forbidden', 'access denied'];
const BURST_PATTERNS = ['burst', 'increased too quickly', 'too many requests in a short'];
const BUSY_PATTERNS = ['server busy', 'temporarily unavailable', 'try again later', 'please retry', 'please try again', 'overloaded', 'high demand', 'rate limit'];
const TRANSIENT_PATTERNS = ['peer closed connection', 'socket hang up', 'server disconnected', 'connection reset', 'connection aborted', 'broken pipe', 'econnreset', 'etimedout', 'econnrefused', 'fetch failed'];
// Provider SDK classes for failures that never reached a response (OpenAI / Anthropic SDKs).
const TRANSIENT_ERROR_NAMES = ['APIConnectionError', 'APIConnectionTimeoutError', 'APITimeoutError', 'InternalServerError'];

type Rec = Record<string, unknown>;

function asRecord(value: unknown): Rec | null {
  return typeof value === 'object' && value !== null ? (value as Rec) : null;
}

/**
 * The error a wrapper stands for: follows `cause` through LangChain `MiddlewareError`s (each
 * `wrapModelCall` layer adds one) to the provider's error.
 */
export function unwrapMiddlewareError(err: unknown): unknown {
  let current = err;
  for (let depth = 0; depth < 32; depth += 1) {
    const rec = asRecord(current);
    if (rec === null || rec['~brand'] !== 'MiddlewareError' || rec['cause'] === undefined) return current;
    current = rec['cause'];
  }
  return current;
}

/** Every error in the `cause` chain of `err`, `err` first (cycles and depth bounded). */
export function causeChain(err: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = err;
  while (current !== undefined && current !== null && chain.length < 32 && !chain.includes(current)) {
    chain.push(current);
    current = asRecord(current)?.['cause'];
  }
  return chain;
}

/**
 * True when `err` (or anything in its cause chain) is a cancellation: an `AbortError`, Temporal's
 * `CancelledFailure`, or a LangGraph bubble-up signal (`is_bubble_up`, the test LangGraph's own
 * `isGraphBubbleUp` applies). These must propagate, never become a fallback or a tool error.
 */
export function isCancellationError(err: unknown): boolean {
  return causeChain(err).some((e) => {
    const rec = asRecord(e);
    if (rec === null) return false;
    return rec['name'] === 'AbortError' || rec['name'] === CANCELLED_FAILURE_NAME || rec['is_bubble_up'] === true;
  });
}

/** HTTP status of a provider error: `status`, `statusCode`, `status_code` or `response.status`. */
export function errorStatus(err: unknown): number | null {
  const rec = asRecord(err);
  if (rec === null) return null;
  for (const key of ['status', 'statusCode', 'status_code']) {
    const value = rec[key];
    if (typeof value === 'number' && Number.isInteger(value)) return value;
  }
  const status = asRecord(rec['response'])?.['status'];
  return typeof status === 'number' && Number.isInteger(status) ? status : null;
}

/** Class name of an error (`error_type`): the constructor's name, else `name`, else `Error`. */
export function errorTypeName(err: unknown): string {
  const rec = asRecord(err);
  if (rec === null) return typeof err === 'string' ? 'Error' : typeof err;
  const ctor = (rec as { constructor?: { name?: unknown } }).constructor?.name;
  if (typeof ctor === 'string' && ctor !== '' && ctor !== 'Object') return ctor;
  return typeof rec['name'] === 'string' && rec['name'] !== '' ? rec['name'] : 'Error';
}

/** The message of an error, trimmed; its class name when blank (`error_detail`). */
export function errorDetail(err: unknown): string {
  const message = typeof err === 'string' ? err : asRecord(err)?.['message'];
  const text = typeof message === 'string' ? message.trim() : '';
  return text === '' ? errorTypeName(err) : text;
}

function errorCode(err: unknown): string {
  const rec = asRecord(err);
  const nested = asRecord(rec?.['error']) ?? asRecord(asRecord(rec?.['body'])?.['error']);
  for (const value of [rec?.['code'], rec?.['type'], nested?.['code'], nested?.['type']]) {
    if (typeof value === 'string' && value !== '') return value.toLowerCase();
  }
  return '';
}

function header(headers: unknown, name: string): unknown {
  const rec = asRecord(headers);
  if (rec === null) return undefined;
  const get = rec['get'];
  if (typeof get === 'function') return (get as (key: string) => unknown).call(headers, name);
  const key = Object.keys(rec).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : rec[key];
}

/** The wait a provider asked for through `retry-after-ms` or `retry-after` (seconds), if any. */
export function retryAfterMs(err: unknown): number | null {
  const rec = asRecord(err);
  const headers = rec?.['headers'] ?? asRecord(rec?.['response'])?.['headers'];
  for (const [name, scale] of [['retry-after-ms', 1], ['retry-after', 1000]] as const) {
    const raw = header(headers, name);
    const seconds = typeof raw === 'number' ? raw : typeof raw === 'string' && raw.trim() !== '' ? Number(raw) : Number.NaN;
    if (Number.isFinite(seconds) && seconds >= 0) return Math.round(seconds * scale);
  }
  return null;
}

function matches(text: string, patterns: readonly string[]): boolean {
  return patterns.some((p) => text.includes(p));
}

function reasonOf(status: number | null, text: string, code: string, type: string): LlmErrorReason {
  if (status === 402 || matches(text, QUOTA_PATTERNS) || matches(code, QUOTA_PATTERNS)) return LlmErrorReason.Quota;
  if (status === 401 || status === 403 || matches(text, AUTH_PATTERNS)) return LlmErrorReason.Auth;
  if ((status === 429 || status === null) && matches(text, BURST_PATTERNS)) return LlmErrorReason.BurstRate;
  if (TRANSIENT_ERROR_NAMES.includes(type) || (status !== null && RETRYABLE_STATUSES.includes(status))) return LlmErrorReason.Transient;
  if (matches(text, BUSY_PATTERNS)) return LlmErrorReason.Busy;
  if (matches(text, TRANSIENT_PATTERNS)) return LlmErrorReason.Transient;
  return LlmErrorReason.Generic;
}

/**
 * Classifies a failed model call. Order matters: quota and auth problems are never retried even
 * when they arrive as a 429 (OpenAI reports an empty balance that way); a burst-rate 429 waits
 * longer; a retryable status or a connection failure is `transient`; "overloaded"-style text
 * without a status is `busy`; anything else is `generic`.
 */
export function classifyLlmError(error: unknown): LlmErrorClassification {
  const err = unwrapMiddlewareError(error);
  // SDK wrappers may keep the HTTP response on a cause rather than on the error itself.
  const status = causeChain(err).reduce<number | null>((found, e) => found ?? errorStatus(e), null);
  const detail = errorDetail(err);
  const errorType = errorTypeName(err);
  const reason = reasonOf(status, detail.toLowerCase(), errorCode(err), errorType);
  const retryable = reason === 'burst_rate' || reason === 'busy' || reason === 'transient';
  return { reason, retryable, status, errorType, detail, retryAfterMs: retryAfterMs(err) };
}

/** Model calls allowed in total for a failure of this reason. */
export function maxAttemptsFor(reason: LlmErrorReason, policy: LlmRetryPolicy): number {
  return reason === 'burst_rate' ? Math.min(policy.maxAttempts, BURST_RATE_MAX_ATTEMPTS) : policy.maxAttempts;
}

/**
 * Milliseconds to wait after failed attempt `attempt` (1-based) before the next one, or null when
 * the failure must not be retried (not retryable, or the attempts for its reason are used up).
 * The wait is `base * 2^(attempt-1)` capped at `capDelayMs` (the burst base after a burst-rate
 * rejection); a provider's retry-after replaces it, capped the same way so one answer cannot park
 * a subagent for minutes.
 */
export function retryDelayMs(attempt: number, classification: LlmErrorClassification, policy: LlmRetryPolicy): number | null {
  if (!classification.retryable || attempt >= maxAttemptsFor(classification.reason, policy)) return null;
  if (classification.retryAfterMs !== null) return Math.min(classification.retryAfterMs, policy.capDelayMs);
  const base = classification.reason === 'burst_rate' ? policy.burstBaseDelayMs : policy.baseDelayMs;
  return Math.min(base * 2 ** Math.max(0, attempt - 1), policy.capDelayMs);
}

/** The user-facing text of the fallback message for a final failure. */
export function llmFallbackText(classification: Pick<LlmErrorClassification, 'reason' | 'detail'>): string {
  switch (classification.reason) {
    case 'quota':
      return 'The configured LLM provider rejected the request because the account is out of quota, billing is unavailable, or usage is restricted. Please fix the provider account and try again.';
    case 'auth':
      return 'The configured LLM provider rejected the request because authentication or access is invalid. Please check the provider credentials and try again.';
    case 'burst_rate':
      return 'The configured LLM provider is rate limiting bursts of requests and still refused after a retry. Please wait a moment and continue the conversation.';
    case 'busy':
    case 'transient':
      return 'The configured LLM provider is temporarily unavailable after multiple retries. Please wait a moment and continue the conversation.';
    case 'generic':
      return `LLM request failed: ${classification.detail}`;
    default: {
      const unreachable: never = classification.reason;
      return unreachable;
    }
  }
}

/** `additional_kwargs` of the fallback AIMessage: the marker the executor looks for (SPEC §2.8). */
export interface LlmErrorFallbackKwargs {
  readonly error_fallback: true;
  readonly error_type: string;
  readonly error_reason: LlmErrorReason;
  readonly error_detail: string;
}

/** Content and kwargs of the fallback AIMessage; the middleware builds the message from it. */
export interface LlmErrorFallbackSpec {
  readonly content: string;
  readonly additional_kwargs: LlmErrorFallbackKwargs;
}

/** The fallback message returned in place of a model answer once a call finally failed. */
export function llmErrorFallback(classification: LlmErrorClassification): LlmErrorFallbackSpec {
  return {
    content: llmFallbackText(classification),
    additional_kwargs: {
      error_fallback: true,
      error_type: classification.errorType,
      error_reason: classification.reason,
      error_detail: classification.detail,
    },
  };
}

/** The `llm_retry` custom stream event emitted before each wait. */
export interface LlmRetryEvent {
  readonly type: 'llm_retry';
  /** The attempt that failed (1-based). */
  readonly attempt: number;
  readonly max_attempts: number;
  readonly wait_ms: number;
  readonly reason: LlmErrorReason;
  readonly message: string;
}

/** Builds the {@link LlmRetryEvent} for a retry after failed attempt `attempt`. */
export function llmRetryEvent(attempt: number, maxAttempts: number, waitMs: number, reason: LlmErrorReason): LlmRetryEvent {
  const seconds = Math.max(1, Math.round(waitMs / 1000));
  const why = reason === 'busy' ? 'provider is busy' : reason === 'burst_rate' ? 'provider is rate limiting bursts' : 'provider request failed temporarily';
  return {
    type: 'llm_retry',
    attempt,
    max_attempts: maxAttempts,
    wait_ms: waitMs,
    reason,
    message: `LLM request retry ${attempt}/${maxAttempts}: ${why}. Retrying in ${seconds}s.`,
  };
}
