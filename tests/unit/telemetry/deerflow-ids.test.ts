import { deerflowIdsOf, idSpanAttributes } from '../../../src/telemetry';

describe('deerflowIdsOf', () => {
  it('reads the ids a subagent task, a lead tool call and a batch item input carry', () => {
    expect(deerflowIdsOf({ threadId: 't', runId: 'r', taskId: '0.1', attempt: 2, prompt: 'x' })).toEqual({ thread_id: 't', run_id: 'r', task_id: '0.1' });
    expect(deerflowIdsOf({ threadId: 't', runId: 'r', callId: '0.2', toolCallId: 'call_9' })).toEqual({ thread_id: 't', run_id: 'r', call_id: '0.2' });
    expect(deerflowIdsOf({ threadId: 't', runId: 'r', taskId: 'item-1', batchItem: { batchId: 'b1', key: '01' } })).toEqual({
      thread_id: 't',
      run_id: 'r',
      task_id: 'item-1',
      batch_id: 'b1',
    });
    expect(deerflowIdsOf({ batchId: 'b2', limit: 3 })).toEqual({ batch_id: 'b2' });
    expect(deerflowIdsOf({ kind: 'batchItem', threadId: 't', batchId: 'b3', key: '01', attempt: 1 })).toEqual({ thread_id: 't', task_id: '01', batch_id: 'b3' });
  });

  it('finds nothing in inputs that are not objects or hold no string ids', () => {
    expect(deerflowIdsOf(undefined)).toEqual({});
    expect(deerflowIdsOf('run-1')).toEqual({});
    expect(deerflowIdsOf({ runId: 7 })).toEqual({});
  });
});

it('names the same ids as deerflow.* span attributes', () => {
  expect(idSpanAttributes({ thread_id: 't', run_id: 'r', task_id: '0.1' })).toEqual({ 'deerflow.thread_id': 't', 'deerflow.run_id': 'r', 'deerflow.task_id': '0.1' });
});
