import { MiddlewareError } from 'langchain';

import {
  BURST_RATE_MAX_ATTEMPTS,
  DEFAULT_LLM_RETRY_POLICY,
  RETRYABLE_STATUSES,
  classifyLlmError,
  errorDetail,
  isCancellationError,
  llmErrorFallback,
  llmFallbackText,
  llmRetryEvent,
  maxAttemptsFor,
  retryAfterMs,
  retryDelayMs,
  type LlmErrorClassification,
} from '../../../src/middleware/llm-error-handling';
import { ScriptedProviderError } from '../../../src/models/errors';

function httpError(status: number, message: string, extra: Record<string, unknown> = {}): Error {
  return Object.assign(new Error(message), { status }, extra);
}

class APIConnectionError extends Error {}

function classification(overrides: Partial<LlmErrorClassification>): LlmErrorClassification {
  return { reason: 'transient', retryable: true, status: 503, errorType: 'Error', detail: 'x', retryAfterMs: null, ...overrides };
}

describe('classifyLlmError (SPEC §6.8)', () => {
  it('treats the retryable statuses as transient', () => {
    expect(RETRYABLE_STATUSES).toEqual([408, 409, 425, 429, 500, 502, 503, 504]);
    for (const status of RETRYABLE_STATUSES) {
      expect(classifyLlmError(httpError(status, 'failed')).reason).toBe('transient');
    }
  });

  it('reads the scripted model error like a provider error', () => {
    expect(classifyLlmError(new ScriptedProviderError('503 service unavailable'))).toEqual({
      reason: 'transient',
      retryable: true,
      status: 503,
      errorType: 'ScriptedProviderError',
      detail: '503 service unavailable',
      retryAfterMs: null,
    });
    expect(classifyLlmError(new ScriptedProviderError('429 rate limited'))).toMatchObject({ reason: 'transient', retryable: true, status: 429 });
  });

  it('never retries quota or auth failures, even as a 429', () => {
    expect(classifyLlmError(httpError(429, 'You exceeded your current quota', { code: 'insufficient_quota' }))).toMatchObject({ reason: 'quota', retryable: false });
    expect(classifyLlmError(httpError(402, 'Payment required'))).toMatchObject({ reason: 'quota', retryable: false });
    expect(classifyLlmError(new ScriptedProviderError('401 invalid api key'))).toMatchObject({ reason: 'auth', retryable: false, status: 401 });
    expect(classifyLlmError(httpError(403, 'nope'))).toMatchObject({ reason: 'auth', retryable: false });
    expect(classifyLlmError(new Error('Incorrect API key provided'))).toMatchObject({ reason: 'auth', retryable: false, status: null });
  });

  it('tells burst-rate, busy, connection and generic failures apart', () => {
    expect(classifyLlmError(httpError(429, 'Request burst rate exceeded'))).toMatchObject({ reason: 'burst_rate', retryable: true });
    expect(classifyLlmError(new Error('Overloaded: server busy'))).toMatchObject({ reason: 'busy', retryable: true });
    expect(classifyLlmError(new APIConnectionError('Connection error.'))).toMatchObject({ reason: 'transient', errorType: 'APIConnectionError' });
    expect(classifyLlmError(new Error('read ECONNRESET'))).toMatchObject({ reason: 'transient', retryable: true });
    expect(classifyLlmError(httpError(400, 'context length exceeded'))).toMatchObject({ reason: 'generic', retryable: false, status: 400 });
    expect(classifyLlmError('plain string failure')).toMatchObject({ reason: 'generic', errorType: 'Error', detail: 'plain string failure' });
  });

  it('looks through MiddlewareError wrappers and SDK causes', () => {
    const wrapped = MiddlewareError.wrap(MiddlewareError.wrap(new ScriptedProviderError('502 bad gateway'), 'inner'), 'outer');
    expect(classifyLlmError(wrapped)).toMatchObject({ reason: 'transient', status: 502, errorType: 'ScriptedProviderError', detail: '502 bad gateway' });
    const sdk = new Error('wrapped', { cause: httpError(503, 'upstream') });
    expect(classifyLlmError(sdk)).toMatchObject({ reason: 'transient', status: 503, detail: 'wrapped' });
  });

  it('uses the class name when the message is blank', () => {
    expect(errorDetail(new APIConnectionError('  '))).toBe('APIConnectionError');
  });
});

describe('retryAfterMs', () => {
  it('reads retry-after-ms, then retry-after seconds, from Headers or records', () => {
    expect(retryAfterMs({ headers: new Headers({ 'retry-after': '2' }) })).toBe(2000);
    expect(retryAfterMs({ headers: { 'retry-after-ms': '150', 'retry-after': '9' } })).toBe(150);
    expect(retryAfterMs({ response: { headers: { 'Retry-After': '1.5' } } })).toBe(1500);
    expect(retryAfterMs({ headers: { 'retry-after': 'Wed, 21 Oct 2015 07:28:00 GMT' } })).toBeNull();
    expect(retryAfterMs(new Error('x'))).toBeNull();
  });
});

describe('retryDelayMs', () => {
  const policy = DEFAULT_LLM_RETRY_POLICY;

  it('has the SPEC defaults', () => {
    expect(policy).toEqual({ maxAttempts: 3, baseDelayMs: 1000, capDelayMs: 8000, burstBaseDelayMs: 5000 });
    expect(BURST_RATE_MAX_ATTEMPTS).toBe(2);
  });

  it('doubles from the base, caps, and stops after maxAttempts', () => {
    const c = classification({});
    expect([1, 2, 3].map((a) => retryDelayMs(a, c, policy))).toEqual([1000, 2000, null]);
    const six = { ...policy, maxAttempts: 6 };
    expect([1, 2, 3, 4, 5, 6].map((a) => retryDelayMs(a, c, six))).toEqual([1000, 2000, 4000, 8000, 8000, null]);
  });

  it('waits the burst base and allows two attempts at most after a burst-rate rejection', () => {
    const burst = classification({ reason: 'burst_rate' });
    expect(maxAttemptsFor('burst_rate', { ...policy, maxAttempts: 5 })).toBe(2);
    expect(maxAttemptsFor('burst_rate', { ...policy, maxAttempts: 1 })).toBe(1);
    expect([1, 2].map((a) => retryDelayMs(a, burst, { ...policy, maxAttempts: 5 }))).toEqual([5000, null]);
    expect(retryDelayMs(1, burst, { ...policy, capDelayMs: 3000 })).toBe(3000);
  });

  it('honours a capped retry-after and never retries what is not retryable', () => {
    expect(retryDelayMs(1, classification({ retryAfterMs: 2500 }), policy)).toBe(2500);
    expect(retryDelayMs(1, classification({ retryAfterMs: 60_000 }), policy)).toBe(8000);
    expect(retryDelayMs(1, classification({ reason: 'auth', retryable: false }), policy)).toBeNull();
  });
});

describe('fallback message', () => {
  it('carries the marker fields and the generic text', () => {
    expect(llmErrorFallback(classifyLlmError(httpError(400, 'bad request: tools[0] invalid')))).toEqual({
      content: 'LLM request failed: bad request: tools[0] invalid',
      additional_kwargs: { error_fallback: true, error_type: 'Error', error_reason: 'generic', error_detail: 'bad request: tools[0] invalid' },
    });
  });

  it('explains quota, auth and unavailability without the raw detail', () => {
    expect(llmFallbackText({ reason: 'quota', detail: 'd' })).toContain('out of quota');
    expect(llmFallbackText({ reason: 'auth', detail: 'd' })).toContain('authentication or access is invalid');
    expect(llmFallbackText({ reason: 'transient', detail: 'd' })).toBe(
      'The configured LLM provider is temporarily unavailable after multiple retries. Please wait a moment and continue the conversation.',
    );
    expect(llmFallbackText({ reason: 'busy', detail: 'd' })).toBe(llmFallbackText({ reason: 'transient', detail: 'd' }));
    expect(llmFallbackText({ reason: 'burst_rate', detail: 'd' })).toContain('rate limiting bursts');
  });
});

describe('llmRetryEvent', () => {
  it('is the llm_retry custom event', () => {
    expect(llmRetryEvent(1, 3, 1000, 'transient')).toEqual({
      type: 'llm_retry',
      attempt: 1,
      max_attempts: 3,
      wait_ms: 1000,
      reason: 'transient',
      message: 'LLM request retry 1/3: provider request failed temporarily. Retrying in 1s.',
    });
    expect(llmRetryEvent(2, 3, 200, 'busy').message).toBe('LLM request retry 2/3: provider is busy. Retrying in 1s.');
  });
});

describe('isCancellationError', () => {
  it('recognizes aborts, Temporal cancellation and LangGraph bubble-ups, also wrapped', () => {
    expect(isCancellationError(new DOMException('This operation was aborted', 'AbortError'))).toBe(true);
    expect(isCancellationError(Object.assign(new Error('CANCELLED'), { name: 'CancelledFailure' }))).toBe(true);
    expect(isCancellationError({ is_bubble_up: true })).toBe(true);
    expect(isCancellationError(new Error('outer', { cause: new DOMException('x', 'AbortError') }))).toBe(true);
    expect(isCancellationError(new ScriptedProviderError('503 busy'))).toBe(false);
    expect(isCancellationError(undefined)).toBe(false);
  });
});
