import type { WorkflowExecutionInfo } from '@temporalio/client';
import { TypedSearchAttributes } from '@temporalio/common';
import { runsListEntry, runsListLine } from '../../../src/cli/runs-list-entry';
import { RunsListEntrySchema, SA_AGENT, SA_RUN_STATUS, SA_THREAD_ID, SA_USER_ID } from '../../../src/contracts';

function execution(workflowId: string, attributes: TypedSearchAttributes, closed: boolean): WorkflowExecutionInfo {
  return {
    workflowId,
    status: { name: closed ? 'COMPLETED' : 'RUNNING' },
    startTime: new Date('2026-01-02T03:04:05.000Z'),
    closeTime: closed ? new Date('2026-01-02T03:05:00.000Z') : undefined,
    typedSearchAttributes: attributes,
  } as unknown as WorkflowExecutionInfo;
}

describe('runsListEntry', () => {
  it('reads thread, user, agent and status from the search attributes and the run id from the workflow id', () => {
    const attributes = new TypedSearchAttributes([
      { key: SA_THREAD_ID, value: 't1' },
      { key: SA_USER_ID, value: 'alice' },
      { key: SA_AGENT, value: 'default' },
      { key: SA_RUN_STATUS, value: 'completed' },
    ]);
    const entry = runsListEntry(execution('lead-run:t1:run:with:colons', attributes, true));
    expect(RunsListEntrySchema.parse(entry)).toEqual({
      workflow_id: 'lead-run:t1:run:with:colons',
      thread_id: 't1',
      run_id: 'run:with:colons',
      user_id: 'alice',
      agent: 'default',
      status: 'completed',
      execution_status: 'COMPLETED',
      started_at: '2026-01-02T03:04:05.000Z',
      closed_at: '2026-01-02T03:05:00.000Z',
    });
    expect(runsListLine(entry)).toBe(
      'completed           thread=t1  run=run:with:colons  user=alice  agent=default  started=2026-01-02T03:04:05.000Z',
    );
  });

  it('a run with nothing set yet and a workflow id of its own shows nulls and Temporal status', () => {
    const entry = runsListEntry(execution('my-own-id', new TypedSearchAttributes(), false));
    expect(entry).toMatchObject({ thread_id: null, run_id: null, user_id: null, agent: null, status: null, closed_at: null });
    expect(runsListLine(entry)).toBe('running             thread=-  run=my-own-id  user=-  agent=-  started=2026-01-02T03:04:05.000Z');
  });
});
