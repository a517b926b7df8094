import { mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { WorkflowFailedError } from '@temporalio/client';
import { WORKFLOW_PATCHES } from '../../src/workflows/patches';
import type { Harness } from '../support/harness';
import { decodeJson, localActivityTypes, patchIds, scheduledActivityTypes, type HistoryEvent } from '../support/history-events';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const task = (n: number) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: 'general-purpose' } });

async function historyOf(workflowId: string, runId?: string): Promise<HistoryEvent[]> {
  return (await temporal.env().client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
}

/** The call ids of the outcomes each `leadModelStepWithOutcomes` was given, one list per step. */
const carried = (events: readonly HistoryEvent[]) =>
  events
    .filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'leadModelStepWithOutcomes')
    .map((e) => (decodeJson(e.activityTaskScheduledEventAttributes!.input!.payloads![0]!.data) as { outcomes: Array<{ callId: string }> }).outcomes.map((o) => o.callId));

/** The thread as stored: each message's type and text. */
async function thread(harness: Harness, threadId: string): Promise<Array<[string, unknown]>> {
  return (await harness.stores.messages.listMessages(threadId)).map((r) => mapStoredMessageToChatMessage(r.message)).map((m) => [m.getType(), m.content]);
}

async function taskEnds(harness: Harness, threadId: string): Promise<Array<[string | null, unknown]>> {
  const ends = await harness.stores.events.listEvents({ runId: 'run-1', threadId, eventTypes: ['subagent.end'] });
  return ends.map((e) => [e.taskId, (e.payload as { status?: unknown }).status]);
}

test("a one-task run: the task's outcome is written by the next model step, with no local activity, before the lead reads the thread", async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [task(1)] }, { content: 'Job 1 is done.' }], subagents: [{ match: '*', turns: [{ content: 'ok' }] }] });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-one', runId: 'run-1' });
  expect(state).toMatchObject({ status: 'completed', finalMessageBrief: 'Job 1 is done.' });
  expect(state.tasks.map((t) => [t.taskId, t.status, t.resultBrief])).toEqual([['0.0', 'completed', 'ok']]);

  const events = await historyOf(workflowId);
  expect(patchIds(events)).toEqual([WORKFLOW_PATCHES.leadTaskAttributesAfterStep]);
  expect(scheduledActivityTypes(events)).toEqual(['leadModelStep', 'runSubagent', 'leadModelStepWithOutcomes']);
  expect(carried(events)).toEqual([['0.0']]);
  expect(localActivityTypes(events)).toEqual([]);
  expect(await thread(harness, 'thread-one')).toEqual([
    ['human', 'go'],
    ['ai', ''],
    ['tool', 'Task Succeeded. Result: ok'],
    ['ai', 'Job 1 is done.'],
  ]);
  // The lead's second request held the task's result: written before the model was called.
  const second = harness.recorder.requests.filter((r) => r.tags.includes('lead'))[1]?.messages ?? [];
  expect(second.map((m) => m.getType()).slice(-2)).toEqual(['ai', 'tool']);
  expect(second.at(-1)?.content).toBe('Task Succeeded. Result: ok');
  expect(await taskEnds(harness, 'thread-one')).toEqual([['0.0', 'completed']]);
});

test('only the last burst of a response is left to the step: an earlier one is written when it is known', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task(1), task(2)] }, { content: 'both done' }],
    subagents: [
      { match: 'Job 2', turns: [{ content: 'slow', delay_ms: 1_500 }] },
      { match: '*', turns: [{ content: 'fast' }] },
    ],
  });
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-bursts', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.taskId, t.status])).toEqual([
    ['0.0', 'completed'],
    ['0.1', 'completed'],
  ]);
  const events = await historyOf(workflowId);
  expect(localActivityTypes(events)).toEqual(['recordToolOutcome']);
  expect(carried(events)).toEqual([['0.1']]);
  expect((await thread(harness, 'thread-bursts')).map(([type, content]) => `${type}:${String(content)}`)).toEqual(['human:go', 'ai:', 'tool:Task Succeeded. Result: fast', 'tool:Task Succeeded. Result: slow', 'ai:both done']);
  expect(await taskEnds(harness, 'thread-bursts')).toEqual([
    ['0.0', 'completed'],
    ['0.1', 'completed'],
  ]);
});

test('a response that asked the user a question writes its last outcomes at once: the run waits for the answer, not for a step', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task(1), { name: 'ask_clarification', args: { question: 'Which one?' } }] }, { content: 'Got it.' }],
    subagents: [{ match: '*', turns: [{ content: 'ok', delay_ms: 300 }] }],
  });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-question', runId: 'run-1' });
  // While the run waits for the answer, the thread already holds the task's result.
  await waitFor(async () => (await thread(harness, 'thread-question')).some(([type, content]) => type === 'tool' && content === 'Task Succeeded. Result: ok'));
  expect((await harness.client.getState(started.workflowId)).question).toMatchObject({ callId: '0.1' });
  await harness.client.answer(started.workflowId, 'the first');
  await started.handle.result();

  const events = await historyOf(started.workflowId);
  expect(localActivityTypes(events)).toEqual(['recordToolOutcome']);
  expect(scheduledActivityTypes(events)).toEqual(['leadModelStep', 'runSubagent', 'recordClarification', 'recordClarification', 'leadModelStep']);
  expect(await taskEnds(harness, 'thread-question')).toEqual([['0.0', 'completed']]);
});

test('a run cancelled during the step that carries the outcomes writes them itself: the thread holds the result, not a cancellation', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task(1)] }, { content: 'too late', delay_ms: 60_000 }],
    subagents: [{ match: '*', turns: [{ content: 'ok' }] }],
  });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-cancel', runId: 'run-1' });
  await waitFor(async () => harness.recorder.requests.filter((r) => r.tags.includes('lead')).length === 2);
  await started.handle.cancel();
  await expect(started.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);

  const state = await harness.client.getState(started.workflowId);
  expect(state.status).toBe('cancelled');
  expect(state.tasks.map((t) => [t.taskId, t.status])).toEqual([['0.0', 'completed']]);
  const events = await historyOf(started.workflowId);
  expect(carried(events)).toEqual([['0.0']]);
  // The run did not see the step end, so it wrote what the step was given (keyed: nothing twice).
  expect(localActivityTypes(events)).toEqual(['recordToolOutcome']);
  expect(await thread(harness, 'thread-cancel')).toEqual([
    ['human', 'go'],
    ['ai', ''],
    ['tool', 'Task Succeeded. Result: ok'],
  ]);
  expect(await taskEnds(harness, 'thread-cancel')).toEqual([['0.0', 'completed']]);
});

test('a run that continues as new between a response and its next step writes the outcomes first: the next execution starts with a plain step', async () => {
  const TURNS = 12;
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task(1)], repeat: TURNS - 1 }, { content: 'all done' }],
      subagents: [{ match: '*', turns: [{ content: 'ok' }] }],
    },
    { agents: { default: { max_turns: TURNS + 5 } }, subagents: { max_total_per_run: 50 }, loop_detection: { enabled: false }, lead_runs: { history_event_limit: 100 } },
  );
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-continued', runId: 'run-1' });
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state).toMatchObject({ status: 'completed', finalMessageBrief: 'all done' });
  expect(state.tasks).toHaveLength(TURNS - 1);

  const first = await historyOf(started.workflowId, started.handle.firstExecutionRunId);
  const next = first.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId;
  expect(next).toBeTruthy();
  // The first execution wrote the outcomes its last response left to a step it never ran.
  expect(localActivityTypes(first)).toEqual(['recordToolOutcome']);
  expect(scheduledActivityTypes(first).at(-1)).toBe('runSubagent');
  const second = await historyOf(started.workflowId, next!);
  expect(scheduledActivityTypes(second)[0]).toBe('leadModelStep');

  // Every task's result is in the thread once, right after the call that asked for it.
  const types = (await thread(harness, 'thread-continued')).map(([type]) => type);
  expect(types).toEqual(['human', ...Array.from({ length: TURNS - 1 }, () => ['ai', 'tool']).flat(), 'ai']);
  expect((await taskEnds(harness, 'thread-continued')).map(([, status]) => status)).toEqual(Array(TURNS - 1).fill('completed'));
}, 120_000);
