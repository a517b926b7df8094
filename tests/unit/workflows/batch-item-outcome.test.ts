import { decideItemOutcome, itemBackoffMs, type ItemDecisionContext } from '../../../src/workflows/batch-item-outcome';
import type { SubagentExecutionResult } from '../../../src/contracts';

const ctx = (over: Partial<ItemDecisionContext> = {}): ItemDecisionContext => ({
  attempt: 1,
  maxAttempts: 3,
  timeoutSeconds: 900,
  queueTimeoutSeconds: 300,
  capacityRejection: null,
  ...over,
});

const result = (over: Partial<SubagentExecutionResult> = {}): SubagentExecutionResult => ({
  taskId: 'k',
  attempt: 1,
  status: 'completed',
  stopReason: null,
  resultBrief: 'ok',
  resultSha256: 'a'.repeat(64),
  resultRef: 'ref',
  error: null,
  modelName: 'm',
  usage: null,
  steps: 1,
  ...over,
});

describe('decideItemOutcome', () => {
  test('a completed result ends the item completed, keeping its stop reason', () => {
    const r = result({ stopReason: 'token_capped' });
    expect(decideItemOutcome({ kind: 'result', result: r }, ctx())).toEqual({ kind: 'terminal', status: 'completed', stopReason: 'token_capped', error: null, result: r });
  });

  test('a failed result uses the attempt: retry while attempts are left, then failed with the count', () => {
    const r = result({ status: 'failed', error: 'boom', resultRef: null });
    expect(decideItemOutcome({ kind: 'result', result: r }, ctx({ attempt: 2 }))).toEqual({ kind: 'retry', outcome: 'failed', error: 'boom' });
    expect(decideItemOutcome({ kind: 'result', result: r }, ctx({ attempt: 3 }))).toMatchObject({ kind: 'terminal', status: 'failed', error: 'boom (attempt 3 of 3)' });
    expect(decideItemOutcome({ kind: 'result', result: r }, ctx({ attempt: 1, maxAttempts: 1 }))).toMatchObject({ kind: 'terminal', status: 'failed', error: 'boom' });
  });

  test('a queue timeout before the model ran uses no attempt, even on the last one', () => {
    expect(decideItemOutcome({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, ctx({ attempt: 3 }))).toEqual({
      kind: 'capacity_wait',
      outcome: 'capacity_timeout',
      error: 'Timed out after 300s waiting for a subagent execution slot',
    });
  });

  test('under the reject policy, no slot in time is a capacity rejection (no attempt used)', () => {
    expect(decideItemOutcome({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, ctx({ capacityRejection: 'full' }))).toEqual({
      kind: 'capacity_wait',
      outcome: 'capacity_rejected',
      error: 'full',
    });
  });

  test('an expired lease (heartbeat timeout) uses an attempt and is retried as lost', () => {
    const lost = { kind: 'timeout', timeoutType: 'HEARTBEAT' } as const;
    expect(decideItemOutcome(lost, ctx())).toMatchObject({ kind: 'retry', outcome: 'lost' });
    expect(decideItemOutcome(lost, ctx({ attempt: 3 }))).toMatchObject({ kind: 'terminal', status: 'failed' });
  });

  test('the last try ending without a result keeps what it spent; an earlier one is retried', () => {
    const progress = { steps: 4, usage: { input_tokens: 30, output_tokens: 6, total_tokens: 36 }, modelName: 'm', evidence: null };
    const timeout = { kind: 'timeout', timeoutType: 'START_TO_CLOSE', progress } as const;
    expect(decideItemOutcome(timeout, ctx({ attempt: 3 }))).toMatchObject({ kind: 'terminal', status: 'timed_out', result: null, progress });
    expect(decideItemOutcome({ kind: 'timeout', timeoutType: 'HEARTBEAT', progress }, ctx({ attempt: 3 }))).toMatchObject({ kind: 'terminal', status: 'failed', progress });
    expect(decideItemOutcome(timeout, ctx())).toEqual({ kind: 'retry', outcome: 'failed', error: 'Execution timed out after 900 seconds' });
    expect(decideItemOutcome({ kind: 'timeout', timeoutType: 'START_TO_CLOSE' }, ctx({ attempt: 3 }))).not.toHaveProperty('progress');
  });

  test('a worker that shut down uses an attempt and is retried as lost', () => {
    expect(decideItemOutcome({ kind: 'worker_stopped' }, ctx())).toEqual({ kind: 'retry', outcome: 'lost', error: 'Subagent worker shut down before the item finished' });
    expect(decideItemOutcome({ kind: 'worker_stopped' }, ctx({ attempt: 3 }))).toMatchObject({ kind: 'terminal', status: 'failed' });
  });

  test('the execution timeout is retried, and ends timed_out on the last attempt', () => {
    const timeout = { kind: 'timeout', timeoutType: 'START_TO_CLOSE' } as const;
    expect(decideItemOutcome(timeout, ctx())).toEqual({ kind: 'retry', outcome: 'failed', error: 'Execution timed out after 900 seconds' });
    expect(decideItemOutcome(timeout, ctx({ attempt: 3 }))).toMatchObject({ kind: 'terminal', status: 'timed_out' });
  });

  test('a crash of the activity uses an attempt', () => {
    expect(decideItemOutcome({ kind: 'error', message: 'ECONNRESET' }, ctx())).toEqual({ kind: 'retry', outcome: 'failed', error: 'ECONNRESET' });
  });

  test('a cancelled execution ends the item cancelled (the batch fences the row; nothing is retried)', () => {
    expect(decideItemOutcome({ kind: 'cancelled' }, ctx())).toEqual({ kind: 'terminal', status: 'cancelled', stopReason: null, error: null, result: null });
    expect(decideItemOutcome({ kind: 'result', result: result({ status: 'cancelled' }) }, ctx())).toMatchObject({ kind: 'terminal', status: 'cancelled' });
  });
});

test('itemBackoffMs doubles from the base and stops at 30 times it', () => {
  expect([1, 2, 3, 4, 5, 6, 10].map((n) => itemBackoffMs(1, n))).toEqual([1000, 2000, 4000, 8000, 16000, 30000, 30000]);
  expect(itemBackoffMs(0.2, 1)).toBe(200);
  expect(itemBackoffMs(0.2, 0)).toBe(200);
});
