import { mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { ApplicationFailure } from '@temporalio/common';
import { createLeadModelStepWithOutcomes } from '../../../src/activities/lead-model-step';
import { createRecordToolOutcome } from '../../../src/activities/record-tool-outcome';
import { finishedTask, type ToolOutcome } from '../../../src/contracts';
import { INVALID_INPUT_TYPE } from '../../../src/contracts/failure-types';
import { newTaskState } from '../../../src/workflows/new-lead-run-state';
import { storeOnlyDeps } from '../../support/store-only-deps';
import { openMemoryStores, useMemoryStores } from '../../support/memory-stores';

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
  const stores = useMemoryStores();
  let record: ReturnType<typeof createRecordToolOutcome>;
  beforeEach(async () => {
    const deps = storeOnlyDeps(stores());
    record = createRecordToolOutcome(deps);
  });

  const toolMessages = async () =>
    (await stores().messages.listMessages(THREAD)).map((r) => mapStoredMessageToChatMessage(r.message)).map((m) => [m.additional_kwargs['subagent_status'] ?? null, m.content]);

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
    const ends = await stores().events.listEvents({ runId: RUN, threadId: THREAD });
    expect(ends.map((e) => [e.event, e.taskId])).toEqual([
      ['subagent.end', '0.0'],
      ['tool.end', '0.2'],
      ['subagent.end', '0.3'],
    ]);

    // A retried write (the activity timed out after writing) adds nothing.
    await record({ threadId: THREAD, runId: RUN, outcomes });
    expect(await toolMessages()).toHaveLength(4);
    expect(await stores().events.listEvents({ runId: RUN, threadId: THREAD })).toHaveLength(3);
  });

  test("a burst writes its tool messages in one store call and reads each task's result once for its end row and its message", async () => {
    const completed = async (taskId: string): Promise<ToolOutcome> => {
      const resultRef = await stores().results.putResult({ threadId: THREAD, runId: RUN, taskId, attempt: 1, text: `result of ${taskId}` });
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
    const reads = jest.spyOn(stores().results, 'getResult');
    const batches = jest.spyOn(stores().messages, 'putMessagesIfAbsent');
    const singles = jest.spyOn(stores().messages, 'putMessageIfAbsent');
    await record({ threadId: THREAD, runId: RUN, outcomes });
    expect(batches).toHaveBeenCalledTimes(1);
    expect(singles).not.toHaveBeenCalled();
    expect(reads.mock.calls.map(([ref]) => ref).sort()).toEqual([outcomes[0]?.outcome, outcomes[2]?.outcome].map((o) => (o?.kind === 'subagent' ? o.task.resultRef : null)));
    expect(await toolMessages()).toEqual([
      ['completed', 'Task Succeeded. Result: result of 0.0'],
      [null, 'Error: Unknown tool teleport'],
      ['completed', 'Task Succeeded. Result: result of 0.2'],
    ]);
    const ends = await stores().events.listEvents({ runId: RUN, threadId: THREAD });
    expect(ends.map((e) => [e.taskId, (e.payload as { result?: string }).result])).toEqual([
      ['0.0', 'result of 0.0'],
      ['0.2', 'result of 0.2'],
    ]);
  });

  test('asks for the end rows and the tool messages at once, so the store can commit them together', async () => {
    const steps: string[] = [];
    const traced = <A extends unknown[], R>(name: string, write: (...args: A) => Promise<R>) =>
      async (...args: A): Promise<R> => {
        steps.push(`${name} asked`);
        const written = await write(...args);
        steps.push(`${name} stored`);
        return written;
      };
    stores().events.putBatch = traced('events', stores().events.putBatch.bind(stores().events));
    stores().messages.putMessagesIfAbsent = traced('messages', stores().messages.putMessagesIfAbsent.bind(stores().messages));
    await record({ threadId: THREAD, runId: RUN, outcomes: [{ callId: '0.0', outcome: failedTask('0.0') }] });
    expect(steps.slice(0, 2)).toEqual(['events asked', 'messages asked']);
    expect(steps.slice(2).sort()).toEqual(['events stored', 'messages stored']);
    expect(await toolMessages()).toEqual([['failed', 'Task failed. Error: boom 0.0']]);
    expect((await stores().events.listEvents({ runId: RUN, threadId: THREAD })).map((e) => e.event)).toEqual(['subagent.end']);
  });

  test("writes a cancelled task the run knows no spend of with the spend its attempt stored, and returns it; another attempt's is not taken", async () => {
    const usage = { input_tokens: 30, output_tokens: 5, total_tokens: 35 };
    const progress = { steps: 2, usage, modelName: 'scripted', evidence: { receipts: 1, verdicts: { verified: 0, failed: 0, unknown: 0, unverified: 1 }, flagged: [] } };
    const cancelled = (taskId: string, attempts: number): ToolOutcome => ({
      kind: 'subagent',
      toolCallId: `call_${taskId}`,
      task: finishedTask({ ...newTaskState(taskId, 0, 'general-purpose', `Job ${taskId}`), status: 'cancelled', attempts }),
      spendInStore: true,
    });
    await stores().progress.putProgress({ threadId: THREAD, runId: RUN, taskId: '0.0' }, { attempt: 2, progress });
    await stores().progress.putProgress({ threadId: THREAD, runId: RUN, taskId: '0.1' }, { attempt: 1, progress });
    const recorded = await record({
      threadId: THREAD,
      runId: RUN,
      outcomes: [
        { callId: '0.0', outcome: cancelled('0.0', 2) },
        // Its stored row is the first attempt's: the second one stored nothing before it was stopped.
        { callId: '0.1', outcome: cancelled('0.1', 2) },
        { callId: '0.2', outcome: failedTask('0.2') },
      ],
    });
    expect(recorded).toEqual({ spent: [{ callId: '0.0', progress }] });
    const ends = await stores().events.listEvents({ runId: RUN, threadId: THREAD, eventTypes: ['subagent.end'] });
    expect(ends.map((e) => [e.taskId, (e.payload as { usage?: unknown }).usage ?? null, (e.payload as { model_name?: string }).model_name ?? null])).toEqual([
      ['0.0', usage, 'scripted'],
      ['0.1', null, null],
      ['0.2', null, null],
    ]);
    const messages = (await stores().messages.listMessages(THREAD)).map((r) => mapStoredMessageToChatMessage(r.message).additional_kwargs);
    expect(messages.map((k) => [k['subagent_status'], k['subagent_token_usage'] ?? null, (k['subagent_evidence'] as { receipts?: number } | undefined)?.receipts ?? null])).toEqual([
      ['cancelled', usage, 1],
      ['cancelled', null, null],
      ['failed', null, null],
    ]);
  });

  test("still takes one call's outcome, as runs recorded before bursts send it", async () => {
    await record({ threadId: THREAD, runId: RUN, callId: '0.0', outcome: failedTask('0.0') });
    expect(await toolMessages()).toEqual([['failed', 'Task failed. Error: boom 0.0']]);
    expect((await stores().events.listEvents({ runId: RUN, threadId: THREAD })).map((e) => e.event)).toEqual(['subagent.end']);
  });

  test('refuses an input neither shape accepts at once, without retries', async () => {
    const refused = record({ threadId: THREAD, runId: RUN, outcomes: [] });
    await expect(refused).rejects.toBeInstanceOf(ApplicationFailure);
    await expect(refused).rejects.toMatchObject({ type: INVALID_INPUT_TYPE, nonRetryable: true, message: expect.stringContaining('outcomes') });
    expect(await toolMessages()).toEqual([]);
  });
});

describe('leadModelStepWithOutcomes', () => {
  test('refuses, before any write, outcomes that take their spend from the store: only recordToolOutcome returns that spend to the run', async () => {
    const stores = await openMemoryStores();
    try {
      const step = createLeadModelStepWithOutcomes(storeOnlyDeps(stores));
      const cancelled: ToolOutcome = { ...failedTask('0.0'), spendInStore: true } as ToolOutcome;
      const input = { threadId: THREAD, runId: RUN, userId: 'u', agentName: 'lead', modelName: 'm', turn: 1, message: null, toolOutcomes: [], limits: {}, catalog: [] };
      const refused = step({ ...input, outcomes: [{ callId: '0.0', outcome: cancelled }] } as unknown as Parameters<typeof step>[0]);
      await expect(refused).rejects.toMatchObject({ type: INVALID_INPUT_TYPE, nonRetryable: true, message: expect.stringContaining('outcomes: an outcome that takes its spend from the store') });
      expect(await stores.messages.listMessages(THREAD)).toEqual([]);
      expect(await stores.events.listEvents({ runId: RUN, threadId: THREAD })).toEqual([]);
    } finally {
      await stores.close();
    }
  });
});
