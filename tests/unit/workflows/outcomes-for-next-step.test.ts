import { finishedTask, type CallOutcome } from '../../../src/contracts';
import { newTaskState } from '../../../src/workflows/new-lead-run-state';
import { writtenByNextStep } from '../../../src/workflows/outcomes-for-next-step';

const ref = (callId: string) => ({ callId, toolCallId: `call_${callId}`, toolName: 'task' });
const open = (...callIds: string[]) => new Map(callIds.map((callId) => [callId, ref(callId)]));

const taskEnd = (callId: string, spendInStore = false): CallOutcome => ({
  callId,
  outcome: {
    kind: 'subagent',
    toolCallId: `call_${callId}`,
    task: finishedTask({ ...newTaskState(callId, 0, 'general-purpose', `Job ${callId}`), status: spendInStore ? 'cancelled' : 'completed', attempts: 1 }),
    ...(spendInStore ? { spendInStore: true as const } : {}),
  },
});
const unknownTool = (callId: string): CallOutcome => ({ callId, outcome: { kind: 'error', toolCallId: `call_${callId}`, toolName: 'teleport', error: 'Unknown tool teleport' } });

describe('writtenByNextStep', () => {
  test("a response's last outcomes go to the next model step", () => {
    expect(writtenByNextStep([taskEnd('0.0')], open('0.0'), false)).toBe(true);
    expect(writtenByNextStep([taskEnd('0.1'), unknownTool('0.2'), taskEnd('0.0')], open('0.0', '0.1', '0.2'), false)).toBe(true);
  });

  test('a burst while other calls of the response are open is written at once', () => {
    expect(writtenByNextStep([taskEnd('0.0')], open('0.0', '0.1'), false)).toBe(false);
    // A lead tool still running keeps its call open too.
    expect(writtenByNextStep([taskEnd('0.0'), taskEnd('0.2')], open('0.0', '0.1', '0.2'), false)).toBe(false);
  });

  test('a run waiting for the answer to its question writes at once: no step comes until the user answers', () => {
    expect(writtenByNextStep([taskEnd('0.0')], open('0.0'), true)).toBe(false);
  });

  test('a burst with an outcome that takes its spend from the store is written at once: the spend goes back to the run', () => {
    expect(writtenByNextStep([taskEnd('0.0', true)], open('0.0'), false)).toBe(false);
    expect(writtenByNextStep([taskEnd('0.0'), taskEnd('0.1', true)], open('0.0', '0.1'), false)).toBe(false);
  });
});
