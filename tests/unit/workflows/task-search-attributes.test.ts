import { TypedSearchAttributes } from '@temporalio/common';
import type { TaskState } from '../../../src/contracts';
import { SA_RUN_STATUS, SA_STOP_REASONS, SA_SUBAGENTS } from '../../../src/contracts/search-attributes';
import { newTaskState } from '../../../src/workflows/new-lead-run-state';
import { changedSearchAttributes, stopReasons, taskSearchAttributes } from '../../../src/workflows/task-search-attributes';

const task = (taskId: string, subagent: string, stopReason: TaskState['stopReason'] = null): TaskState => ({
  ...newTaskState(taskId, 0, subagent, taskId),
  stopReason,
});

describe('taskSearchAttributes', () => {
  it('lists each subagent and stop reason once, in the order the tasks first used them', () => {
    const tasks = [task('0.0', 'bash', 'turn_capped'), task('0.1', 'general-purpose'), task('0.2', 'bash', 'token_capped'), task('0.3', 'bash', 'turn_capped')];
    expect(taskSearchAttributes(tasks)).toEqual([
      { key: SA_SUBAGENTS, value: ['bash', 'general-purpose'] },
      { key: SA_STOP_REASONS, value: ['turn_capped', 'token_capped'] },
    ]);
  });
});

describe('taskSearchAttributes with the run stop reason', () => {
  it("adds the run's own stop reason after its tasks' ones, once", () => {
    const tasks = [task('0.0', 'bash', 'turn_capped'), task('0.1', 'bash', 'loop_capped')];
    expect(taskSearchAttributes(tasks, 'subagent_limit_capped')).toEqual([
      { key: SA_SUBAGENTS, value: ['bash'] },
      { key: SA_STOP_REASONS, value: ['turn_capped', 'loop_capped', 'subagent_limit_capped'] },
    ]);
    expect(stopReasons(tasks, 'loop_capped')).toEqual(['turn_capped', 'loop_capped']);
    expect(stopReasons([], 'token_capped')).toEqual(['token_capped']);
    expect(stopReasons(tasks, null)).toEqual(['turn_capped', 'loop_capped']);
  });
});

describe('changedSearchAttributes', () => {
  const wanted = taskSearchAttributes([task('0.0', 'bash', 'loop_capped')]);

  it('a run that upserted nothing yet changes every non-empty attribute', () => {
    expect(changedSearchAttributes(new TypedSearchAttributes(), wanted)).toEqual(wanted);
  });

  it('changes nothing when every value is already there, in the same order', () => {
    expect(changedSearchAttributes(new TypedSearchAttributes(wanted), wanted)).toEqual([]);
  });

  it('an empty list is an unset attribute: upserting it would change nothing', () => {
    const none = taskSearchAttributes([task('0.0', 'bash')]);
    expect(changedSearchAttributes(new TypedSearchAttributes([{ key: SA_SUBAGENTS, value: ['bash'] }]), none)).toEqual([]);
  });

  it('changes a list that grew or differs, and a scalar that differs; other attributes do not matter', () => {
    const present = new TypedSearchAttributes([
      { key: SA_SUBAGENTS, value: ['bash'] },
      { key: SA_STOP_REASONS, value: ['turn_capped'] },
      { key: SA_RUN_STATUS, value: 'running' },
    ]);
    const grown = taskSearchAttributes([task('0.0', 'bash', 'turn_capped'), task('0.1', 'general-purpose', 'turn_capped')]);
    expect(changedSearchAttributes(present, grown)).toEqual([{ key: SA_SUBAGENTS, value: ['bash', 'general-purpose'] }]);
    expect(changedSearchAttributes(present, [{ key: SA_RUN_STATUS, value: 'completed' }])).toEqual([{ key: SA_RUN_STATUS, value: 'completed' }]);
  });
});
