import type { LeadRunState } from '../../../src/contracts';
import { newLeadRunState } from '../../../src/workflows/new-lead-run-state';
import { progressDetails } from '../../../src/workflows/progress-details';

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
});
