import { SubagentRuntimeConfigSchema } from '../../../src/config';
import { decideAdmission, REJECT_DISPATCH_GRACE_SECONDS } from '../../../src/contracts/admission';

const runtime = (input: Record<string, unknown> = {}) => SubagentRuntimeConfigSchema.parse(input);

describe('decideAdmission (SPEC C.1)', () => {
  test('queue policy, nothing waiting: every task is admitted and may wait queue_timeout_seconds', () => {
    expect(decideAdmission(5, 0, runtime())).toEqual({
      policy: 'queue',
      admitted: 5,
      rejection: null,
      scheduleToStartSeconds: 300,
      capacityMessage: 'Subagent execution capacity is full (3 running, 0 queued)',
    });
  });

  test('queue policy: tasks beyond max_queued are refused with the capacity-full error', () => {
    expect(decideAdmission(3, 63, runtime())).toMatchObject({ admitted: 1, rejection: 'Subagent execution capacity is full (3 running, 63 queued)' });
    expect(decideAdmission(2, 64, runtime())).toMatchObject({ admitted: 0, rejection: 'Subagent execution capacity is full (3 running, 64 queued)' });
    expect(decideAdmission(2, 70, runtime({ max_queued: 64 }))).toMatchObject({ admitted: 0 });
  });

  test('reject policy: refuses everything while tasks wait; otherwise admits with a short dispatch grace', () => {
    expect(decideAdmission(2, 1, runtime({ admission_policy: 'reject' }))).toMatchObject({
      policy: 'reject',
      admitted: 0,
      rejection: 'Subagent execution capacity is full (3 running, 1 queued)',
    });
    expect(decideAdmission(2, 0, runtime({ admission_policy: 'reject', max_running: 5 }))).toEqual({
      policy: 'reject',
      admitted: 2,
      rejection: null,
      scheduleToStartSeconds: REJECT_DISPATCH_GRACE_SECONDS,
      capacityMessage: 'Subagent execution capacity is full (5 running, 0 queued)',
    });
  });

  test('max_queued: 0 allows no waiting, like the reject policy', () => {
    expect(decideAdmission(1, 0, runtime({ max_queued: 0 }))).toMatchObject({ policy: 'reject', admitted: 1, scheduleToStartSeconds: REJECT_DISPATCH_GRACE_SECONDS });
  });
});
