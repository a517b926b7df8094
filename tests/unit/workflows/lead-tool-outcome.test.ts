import { decideLeadToolFailure } from '../../../src/workflows/lead-tool-outcome';

const limits = { timeoutSeconds: 300, heartbeatTimeoutSeconds: 30 };

describe('decideLeadToolFailure', () => {
  it('a cancellation is cancelled', () => {
    expect(decideLeadToolFailure({ kind: 'cancelled' }, limits)).toEqual({ status: 'cancelled', error: 'cancelled' });
  });

  it('a start-to-close timeout names the limit', () => {
    expect(decideLeadToolFailure({ kind: 'timeout', timeoutType: 'START_TO_CLOSE' }, limits)).toEqual({
      status: 'failed',
      error: 'the tool did not finish within 300 s',
    });
  });

  it('a heartbeat timeout says the worker was lost', () => {
    expect(decideLeadToolFailure({ kind: 'timeout', timeoutType: 'HEARTBEAT' }, limits)).toEqual({
      status: 'failed',
      error: "the tool's worker stopped responding (no heartbeat for 30 s)",
    });
  });

  it('a worker that shut down fails the call (never rerun behind the lead), saying it may have run in part', () => {
    expect(decideLeadToolFailure({ kind: 'worker_stopped' }, limits)).toEqual({
      status: 'failed',
      error: "the tool's worker shut down before it finished (it may have run in part); call it again if still needed",
    });
  });

  it('an activity error keeps its message', () => {
    expect(decideLeadToolFailure({ kind: 'error', message: 'store unavailable' }, limits)).toEqual({ status: 'failed', error: 'store unavailable' });
  });
});
