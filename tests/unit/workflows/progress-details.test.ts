import type { LeadRunState, TaskState } from '../../../src/contracts';
import { newLeadRunState, newTaskState } from '../../../src/workflows/new-lead-run-state';
import { progressDetails } from '../../../src/workflows/progress-details';

const newTask = (taskId: string): TaskState => ({ ...newTaskState(taskId, 0, 'general-purpose', taskId), attempts: 1 });
const state = (overrides: Partial<LeadRunState> = {}): LeadRunState => ({ ...newLeadRunState('r', 't'), turn: 1, ...overrides });

describe('progressDetails', () => {
  it('shows the turn and that no task started yet', () => {
    expect(progressDetails(state())).toBe('**running** · lead turn 2 · tasks: none yet');
  });

  it('counts direct calls by status next to the tasks', () => {
    const call = (status: 'running' | 'completed' | 'failed') => ({ callId: '0.0', turn: 0, tool: 'ls', status, error: null });
    expect(progressDetails(state({ leadTools: [call('completed'), call('running'), call('completed')] }))).toBe(
      '**running** · lead turn 2 · tasks: none yet · direct calls: 2 completed, 1 running',
    );
  });

  it("adds the lead's and every task's tokens, running tasks included, and leaves them out while none were reported", () => {
    const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output, total_tokens: input + output });
    const task = (taskId: string, status: 'running' | 'completed', spent: ReturnType<typeof usage> | null) => ({
      ...newTask(taskId),
      status,
      usage: spent,
    });
    expect(progressDetails(state({ tasks: [task('a', 'running', null)] }))).toBe('**running** · lead turn 2 · tasks: 1 running');
    expect(
      progressDetails(state({ leadUsage: usage(100, 20), tasks: [task('a', 'completed', usage(50, 10)), task('b', 'running', usage(30, 5)), task('c', 'running', null)] })),
    ).toBe('**running** · lead turn 2 · tasks: 1 completed, 2 running · tokens: 215 (180 in, 35 out)');
  });
});
