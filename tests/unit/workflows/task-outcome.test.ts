import type { SubagentExecutionResult } from '../../../src/contracts';
import type { ExecutionOutcome } from '../../../src/workflows/execution-outcome';
import { capacityRejected, decideTaskOutcome, pollingTimedOut, type DecisionContext } from '../../../src/workflows/task-outcome';

const ctx: DecisionContext = { cancelRequested: false, attempt: 1, maxAttempts: 3, timeoutSeconds: 1800, queueTimeoutSeconds: 300 };

function result(overrides: Partial<SubagentExecutionResult> = {}): SubagentExecutionResult {
  return {
    taskId: 'call_1',
    attempt: 1,
    status: 'completed',
    stopReason: null,
    resultBrief: 'done',
    resultSha256: 'a'.repeat(64),
    resultRef: 'result:run-1:call_1:1',
    error: null,
    modelName: 'demo',
    usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
    steps: 2,
    ...overrides,
  };
}

describe('decideTaskOutcome: results', () => {
  it('passes a completed result through as terminal completed, keeping the result object', () => {
    const r = result();
    expect(decideTaskOutcome({ kind: 'result', result: r }, ctx)).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'completed',
      stopReason: null,
      error: null,
      result: r,
    });
    const decision = decideTaskOutcome({ kind: 'result', result: r }, ctx);
    expect(decision.kind === 'terminal' && decision.result).toBe(r);
  });

  it('carries the stop reason of a capped completed result', () => {
    const r = result({ stopReason: 'token_capped' });
    expect(decideTaskOutcome({ kind: 'result', result: r }, ctx)).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'completed',
      stopReason: 'token_capped',
      error: null,
      result: r,
    });
  });

  it('carries the stop reason and error of a failed result', () => {
    const r = result({ status: 'failed', stopReason: 'turn_capped', error: 'Reached max_turns=60', resultBrief: null, resultSha256: null, resultRef: null });
    expect(decideTaskOutcome({ kind: 'result', result: r }, ctx)).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'failed',
      stopReason: 'turn_capped',
      error: 'Reached max_turns=60',
      result: r,
    });
  });

  it('keeps a cancelled result as cancelled with its error', () => {
    const r = result({ status: 'cancelled', error: 'Cancelled by user', resultBrief: null, resultSha256: null, resultRef: null });
    expect(decideTaskOutcome({ kind: 'result', result: r }, ctx)).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'cancelled',
      stopReason: null,
      error: 'Cancelled by user',
      result: r,
    });
  });

  it('never retries a failed result, even on the first of several attempts', () => {
    const r = result({ status: 'failed', error: 'model exploded' });
    expect(decideTaskOutcome({ kind: 'result', result: r }, { ...ctx, attempt: 1, maxAttempts: 10 }).kind).toBe('terminal');
  });
});

describe('decideTaskOutcome: cancellation and errors', () => {
  it('maps a cancelled activity to terminal cancelled without error or result', () => {
    expect(decideTaskOutcome({ kind: 'cancelled' }, ctx)).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'cancelled',
      stopReason: null,
      error: null,
      result: null,
    });
  });

  it('maps an activity error to terminal failed with its message', () => {
    expect(decideTaskOutcome({ kind: 'error', message: 'ApplicationFailure: boom' }, ctx)).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'failed',
      stopReason: null,
      error: 'ApplicationFailure: boom',
      result: null,
    });
  });
});

describe('decideTaskOutcome: timeouts', () => {
  it.each(['START_TO_CLOSE', 'SCHEDULE_TO_CLOSE'] as const)('maps %s to timed_out with the execution cap message', (timeoutType) => {
    expect(decideTaskOutcome({ kind: 'timeout', timeoutType }, { ...ctx, timeoutSeconds: 900 })).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'timed_out',
      stopReason: null,
      error: 'Execution timed out after 900 seconds',
      result: null,
    });
  });

  it('uses the context timeout in the message (1800 s)', () => {
    const decision = decideTaskOutcome({ kind: 'timeout', timeoutType: 'START_TO_CLOSE' }, ctx);
    expect(decision.kind === 'terminal' ? decision.error : null).toBe('Execution timed out after 1800 seconds');
  });

  it('maps SCHEDULE_TO_START to failed with the admission message', () => {
    expect(decideTaskOutcome({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, { ...ctx, queueTimeoutSeconds: 42 })).toEqual({
      kind: 'terminal',
      errorCode: 'capacity_timeout',
      status: 'failed',
      stopReason: null,
      error: 'Timed out after 42s waiting for a subagent execution slot',
      result: null,
    });
  });

  it('does not retry SCHEDULE_TO_START or START_TO_CLOSE even with attempts left', () => {
    const early: DecisionContext = { ...ctx, attempt: 1, maxAttempts: 5 };
    expect(decideTaskOutcome({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, early).kind).toBe('terminal');
    expect(decideTaskOutcome({ kind: 'timeout', timeoutType: 'START_TO_CLOSE' }, early).kind).toBe('terminal');
  });
});

describe('decideTaskOutcome: heartbeat timeouts (lost worker)', () => {
  const heartbeat: ExecutionOutcome = { kind: 'timeout', timeoutType: 'HEARTBEAT' };

  it.each([
    [1, 3],
    [2, 3],
    [1, 2],
  ])('retries on attempt %i of %i', (attempt, maxAttempts) => {
    expect(decideTaskOutcome(heartbeat, { ...ctx, attempt, maxAttempts })).toEqual({ kind: 'retry' });
  });

  it('fails on the last attempt of the budget', () => {
    expect(decideTaskOutcome(heartbeat, { ...ctx, attempt: 3, maxAttempts: 3 })).toEqual({
      kind: 'terminal',
      errorCode: null,
      status: 'failed',
      stopReason: null,
      error: 'Subagent worker stopped responding (heartbeat timeout) on all 3 attempts',
      result: null,
    });
  });

  it('fails immediately when the budget is a single attempt', () => {
    const decision = decideTaskOutcome(heartbeat, { ...ctx, attempt: 1, maxAttempts: 1 });
    expect(decision).toMatchObject({ kind: 'terminal', status: 'failed' });
    expect(decision.kind === 'terminal' ? decision.error : null).toBe(
      'Subagent worker stopped responding (heartbeat timeout) on all 1 attempts',
    );
  });

  it('does not retry past the budget', () => {
    expect(decideTaskOutcome(heartbeat, { ...ctx, attempt: 4, maxAttempts: 3 }).kind).toBe('terminal');
  });
});

describe('decideTaskOutcome: a worker that shut down gracefully', () => {
  const stopped: ExecutionOutcome = { kind: 'worker_stopped' };

  it('retries within the attempt budget, like a lost worker', () => {
    expect(decideTaskOutcome(stopped, { ...ctx, attempt: 1, maxAttempts: 3 })).toEqual({ kind: 'retry' });
    expect(decideTaskOutcome(stopped, { ...ctx, attempt: 2, maxAttempts: 3 })).toEqual({ kind: 'retry' });
  });

  it('fails on the last attempt, saying the worker shut down', () => {
    expect(decideTaskOutcome(stopped, { ...ctx, attempt: 3, maxAttempts: 3 })).toMatchObject({
      kind: 'terminal',
      status: 'failed',
      error: 'Subagent worker shut down during the last of 3 attempts',
    });
  });

  it('ends cancelled when the run was cancelled meanwhile', () => {
    expect(decideTaskOutcome(stopped, { ...ctx, cancelRequested: true })).toMatchObject({ kind: 'terminal', status: 'cancelled' });
  });
});

describe('decideTaskOutcome: unknown inputs', () => {
  it('throws on an unknown outcome kind', () => {
    const bogus = { kind: 'mystery' } as unknown as ExecutionOutcome;
    expect(() => decideTaskOutcome(bogus, ctx)).toThrow('unknown outcome {"kind":"mystery"}');
  });

  it('throws on an unknown timeout type', () => {
    const bogus = { kind: 'timeout', timeoutType: 'SOMETIME' } as unknown as ExecutionOutcome;
    expect(() => decideTaskOutcome(bogus, ctx)).toThrow('unknown timeout type SOMETIME');
  });
});

describe('cancellation fences late outcomes (first terminal writer wins)', () => {
  const cancelled = { ...ctx, cancelRequested: true };
  test.each([
    ['a timeout', { kind: 'timeout', timeoutType: 'START_TO_CLOSE' }],
    ['a lost worker', { kind: 'timeout', timeoutType: 'HEARTBEAT' }],
    ['an error', { kind: 'error', message: 'boom' }],
  ] as const)('%s arriving after the run was cancelled ends the task cancelled', (_name, outcome) => {
    expect(decideTaskOutcome(outcome, cancelled)).toEqual({ kind: 'terminal', status: 'cancelled', stopReason: null, error: null, errorCode: null, result: null });
  });

  test('a completed result arriving after the cancel ends the task cancelled, keeping what it spent', () => {
    const r = result();
    expect(decideTaskOutcome({ kind: 'result', result: r }, cancelled)).toEqual({
      kind: 'terminal',
      status: 'cancelled',
      stopReason: null,
      error: null,
      errorCode: null,
      result: null,
      progress: { steps: r.steps, usage: r.usage, modelName: r.modelName, evidence: null },
    });
  });
});

describe('an execution that ended without a result keeps what it reported', () => {
  const progress = { steps: 3, usage: { input_tokens: 30, output_tokens: 5, total_tokens: 35 }, modelName: 'demo', evidence: null };

  test('timed out (execution cap) and lost on the last attempt carry the reported progress', () => {
    expect(decideTaskOutcome({ kind: 'timeout', timeoutType: 'START_TO_CLOSE', progress }, ctx)).toMatchObject({ status: 'timed_out', progress });
    expect(decideTaskOutcome({ kind: 'timeout', timeoutType: 'HEARTBEAT', progress }, { ...ctx, attempt: 3 })).toMatchObject({ status: 'failed', progress });
  });

  test('the safety net keeps the progress of the execution it gave up on', () => {
    expect(pollingTimedOut(120, 'running', progress)).toMatchObject({ status: 'polling_timed_out', progress });
    expect(pollingTimedOut(120, 'running')).not.toHaveProperty('progress');
  });
});

describe('admission outcomes', () => {
  test('under the reject policy a task no slot picked up in time fails with the capacity-full error', () => {
    const decision = decideTaskOutcome({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, { ...ctx, capacityRejection: 'Subagent execution capacity is full (3 running, 0 queued)' });
    expect(decision).toEqual({
      kind: 'terminal',
      status: 'failed',
      stopReason: null,
      error: 'Subagent execution capacity is full (3 running, 0 queued)',
      errorCode: 'capacity_rejected',
      result: null,
    });
  });

  test('capacityRejected is a failed decision before any model call', () => {
    expect(capacityRejected('full')).toMatchObject({ status: 'failed', error: 'full', errorCode: 'capacity_rejected', result: null });
  });
});
