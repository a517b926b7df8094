import { mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { ApplicationFailure } from '@temporalio/common';
import { createRecordToolOutcome } from '../../../src/activities/record-tool-outcome';
import { finishedTask, type RecordToolOutcomeInput, type ToolOutcome } from '../../../src/contracts';
import { INVALID_INPUT_TYPE } from '../../../src/contracts/failure-types';
import { openStores, type Stores } from '../../../src/store';
import { newTaskState } from '../../../src/workflows/new-lead-run-state';
import { storeOnlyDeps } from '../../support/store-only-deps';

const THREAD = 'thread-1';
const RUN = 'run-1';

const failedTask = (taskId: string): ToolOutcome => ({
  kind: 'subagent',
  toolCallId: `call_${taskId}`,
  task: finishedTask({ ...newTaskState(taskId, 0, 'general-purpose', `Job ${taskId}`), status: 'failed', error: `boom ${taskId}`, attempts: 1 }),
});
const unknownTool: ToolOutcome = { kind: 'error', toolCallId: 'call_x', toolName: 'teleport', error: 'Unknown tool teleport' };
const lostLeadTool: ToolOutcome = { kind: 'leadTool', toolCallId: 'call_ls', toolName: 'ls', status: 'failed', error: 'timed out' };

describe('recordToolOutcome', () => {
  let stores: Stores;
  let record: (input: RecordToolOutcomeInput) => Promise<void>;
  beforeEach(async () => {
    stores = await openStores({ dataDir: '/nonexistent-unused', postgresUrl: null, sqlitePath: ':memory:' });
    const deps = storeOnlyDeps(stores);
    record = createRecordToolOutcome(deps);
  });
  afterEach(async () => {
    await stores.close();
  });

  const toolMessages = async () =>
    (await stores.messages.listMessages(THREAD)).map((r) => mapStoredMessageToChatMessage(r.message)).map((m) => [m.additional_kwargs['subagent_status'] ?? null, m.content]);

  test('writes a burst: every tool message in order, and the end rows of tasks and lead tools', async () => {
    const outcomes = [
      { callId: '0.0', outcome: failedTask('0.0') },
      { callId: '0.1', outcome: unknownTool },
      { callId: '0.2', outcome: lostLeadTool },
      { callId: '0.3', outcome: failedTask('0.3') },
    ];
    await record({ threadId: THREAD, runId: RUN, outcomes });
    expect(await toolMessages()).toEqual([
      ['failed', 'Task failed. Error: boom 0.0'],
      [null, 'Error: Unknown tool teleport'],
      [null, 'Error: timed out'],
      ['failed', 'Task failed. Error: boom 0.3'],
    ]);
    const ends = await stores.events.listEvents({ runId: RUN, threadId: THREAD });
    expect(ends.map((e) => [e.event, e.taskId])).toEqual([
      ['subagent.end', '0.0'],
      ['tool.end', '0.2'],
      ['subagent.end', '0.3'],
    ]);

    // A retried write (the activity timed out after writing) adds nothing.
    await record({ threadId: THREAD, runId: RUN, outcomes });
    expect(await toolMessages()).toHaveLength(4);
    expect(await stores.events.listEvents({ runId: RUN, threadId: THREAD })).toHaveLength(3);
  });

  test("a burst writes its tool messages in one store call and reads each task's result once for its end row and its message", async () => {
    const completed = async (taskId: string): Promise<ToolOutcome> => {
      const resultRef = await stores.results.putResult({ threadId: THREAD, runId: RUN, taskId, attempt: 1, text: `result of ${taskId}` });
      return {
        kind: 'subagent',
        toolCallId: `call_${taskId}`,
        task: finishedTask({ ...newTaskState(taskId, 0, 'general-purpose', `Job ${taskId}`), status: 'completed', resultRef, attempts: 1 }),
      };
    };
    const outcomes = [
      { callId: '0.0', outcome: await completed('0.0') },
      { callId: '0.1', outcome: unknownTool },
      { callId: '0.2', outcome: await completed('0.2') },
    ];
    const reads = jest.spyOn(stores.results, 'getResult');
    const batches = jest.spyOn(stores.messages, 'putMessagesIfAbsent');
    const singles = jest.spyOn(stores.messages, 'putMessageIfAbsent');
    await record({ threadId: THREAD, runId: RUN, outcomes });
    expect(batches).toHaveBeenCalledTimes(1);
    expect(singles).not.toHaveBeenCalled();
    expect(reads.mock.calls.map(([ref]) => ref).sort()).toEqual([outcomes[0]?.outcome, outcomes[2]?.outcome].map((o) => (o?.kind === 'subagent' ? o.task.resultRef : null)));
    expect(await toolMessages()).toEqual([
      ['completed', 'Task Succeeded. Result: result of 0.0'],
      [null, 'Error: Unknown tool teleport'],
      ['completed', 'Task Succeeded. Result: result of 0.2'],
    ]);
    const ends = await stores.events.listEvents({ runId: RUN, threadId: THREAD });
    expect(ends.map((e) => [e.taskId, (e.payload as { result?: string }).result])).toEqual([
      ['0.0', 'result of 0.0'],
      ['0.2', 'result of 0.2'],
    ]);
  });

  test("still takes one call's outcome, as runs recorded before bursts send it", async () => {
    await record({ threadId: THREAD, runId: RUN, callId: '0.0', outcome: failedTask('0.0') });
    expect(await toolMessages()).toEqual([['failed', 'Task failed. Error: boom 0.0']]);
    expect((await stores.events.listEvents({ runId: RUN, threadId: THREAD })).map((e) => e.event)).toEqual(['subagent.end']);
  });

  test('refuses an input neither shape accepts at once, without retries', async () => {
    const refused = record({ threadId: THREAD, runId: RUN, outcomes: [] });
    await expect(refused).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(refused).rejects.toMatchObject({ type: INVALID_INPUT_TYPE, nonRetryable: true, message: expect.stringContaining('outcomes') });
    expect(await toolMessages()).toEqual([]);
  });
});
