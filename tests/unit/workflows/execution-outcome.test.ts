import type { SubagentExecutionResult } from '../../../src/contracts';
import { verdictOf, type ExecutionLimits } from '../../../src/workflows/execution-outcome';

const limits: ExecutionLimits = { timeoutSeconds: 90, queueTimeoutSeconds: 30, capacityRejection: null };
const progress = { steps: 2, usage: null, modelName: 'm', evidence: null };

test('reads each outcome the same for tasks and items', () => {
  const result = { taskId: 't', attempt: 1, status: 'completed' } as SubagentExecutionResult;
  expect(verdictOf({ kind: 'result', result }, limits)).toEqual({ kind: 'result', result });
  expect(verdictOf({ kind: 'cancelled' }, limits)).toEqual({ kind: 'cancelled' });
  expect(verdictOf({ kind: 'error', message: 'boom' }, limits)).toEqual({ kind: 'crashed', error: 'boom' });
  expect(verdictOf({ kind: 'worker_stopped', progress }, limits)).toEqual({ kind: 'lost', cause: 'shutdown', progress });
  expect(verdictOf({ kind: 'timeout', timeoutType: 'HEARTBEAT' }, limits)).toEqual({ kind: 'lost', cause: 'heartbeat' });
  for (const timeoutType of ['START_TO_CLOSE', 'SCHEDULE_TO_CLOSE'] as const) {
    expect(verdictOf({ kind: 'timeout', timeoutType, progress }, limits)).toEqual({ kind: 'timed_out', error: 'Execution timed out after 90 seconds', progress });
  }
});

test('a queue timeout is no slot, with the capacity-full text under the reject policy', () => {
  const queueTimeoutError = 'Timed out after 30s waiting for a subagent execution slot';
  expect(verdictOf({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, limits)).toEqual({ kind: 'no_slot', capacityRejection: null, queueTimeoutError });
  expect(verdictOf({ kind: 'timeout', timeoutType: 'SCHEDULE_TO_START' }, { ...limits, capacityRejection: 'full' })).toEqual({
    kind: 'no_slot',
    capacityRejection: 'full',
    queueTimeoutError,
  });
});
