import { mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { WorkflowFailedError } from '@temporalio/client';
import { WORKFLOW_PATCHES } from '../../src/workflows/patches';
import type { Harness } from '../support/harness';
import { localActivityTypes, patchIds, scheduledActivityTypes, type HistoryEvent } from '../support/history-events';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const task = (n: number) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: 'general-purpose' } });
const oneTask = { lead: [{ tool_calls: [task(1)] }, { content: 'Job 1 is done.' }], subagents: [{ match: '*', turns: [{ content: 'ok' }] }] };

const count = (events: readonly HistoryEvent[], attributes: keyof HistoryEvent) => events.filter((e) => e[attributes] != null).length;

test('model_steps: local runs each lead model step as a local activity: same run, two workflow tasks fewer', async () => {
  // The thread as the lead saw it: the user's message, the call, its result, the answer.
  const thread = async (h: Harness, threadId: string) =>
    (await h.stores.messages.listMessages(threadId)).map((r) => mapStoredMessageToChatMessage(r.message)).map((m) => [m.getType(), m.content]);
  // One worker set per task queue at a time: the first harness stops before the second starts.
  const local = await temporal.start(oneTask, { lead_runs: { model_steps: 'local' } });
  const localRun = await local.run({ message: 'go', threadId: 'thread-local', runId: 'run-1' });
  const localEvents = (await temporal.env().client.workflow.getHandle(localRun.workflowId).fetchHistory()).events ?? [];
  const localThread = await thread(local, 'thread-local');
  await local.close();

  const regular = await temporal.start(oneTask);
  const regularRun = await regular.run({ message: 'go', threadId: 'thread-regular', runId: 'run-1' });
  const regularEvents = (await temporal.env().client.workflow.getHandle(regularRun.workflowId).fetchHistory()).events ?? [];

  for (const { state } of [localRun, regularRun]) {
    expect(state).toMatchObject({ status: 'completed', finalMessageBrief: 'Job 1 is done.' });
    expect(state.tasks.map((t) => [t.status, t.resultBrief])).toEqual([['completed', 'ok']]);
  }
  expect(scheduledActivityTypes(localEvents)).toEqual(['runSubagent']);
  // The second step writes the task's outcome first (patch lead-outcomes-in-step), as a local activity too.
  expect(scheduledActivityTypes(regularEvents)).toEqual(['leadModelStep', 'runSubagent', 'leadModelStepWithOutcomes']);
  expect(localActivityTypes(localEvents)).toEqual(['leadModelStep', 'leadModelStepWithOutcomes']);
  expect(patchIds(localEvents)).toEqual([WORKFLOW_PATCHES.leadTaskAttributesAfterStep, WORKFLOW_PATCHES.leadLocalModelSteps]);
  expect(patchIds(regularEvents)).toEqual([WORKFLOW_PATCHES.leadTaskAttributesAfterStep]);
  expect(count(localEvents, 'workflowTaskCompletedEventAttributes')).toBe(count(regularEvents, 'workflowTaskCompletedEventAttributes') - 2);
  expect(localThread).toEqual(await thread(regular, 'thread-regular'));
  expect(localThread.map(([type]) => type)).toEqual(['human', 'ai', 'tool', 'ai']);
});

test('cancelling a run during a local model step reaches it at the workflow task heartbeat: the model call stops, the run ends cancelled', async () => {
  const harness = await temporal.start({ lead: [{ content: 'too late', delay_ms: 60_000 }] }, { lead_runs: { model_steps: 'local' } });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-local-cancel', runId: 'run-1' });
  await waitFor(async () => harness.recorder.requests.some((r) => r.tags.includes('lead')));
  const cancelledAt = Date.now();
  await started.handle.cancel();
  await expect(started.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  // A workflow task is held while its local activity runs: the SDK completes it (a heartbeat) at 80%
  // of the 10 s workflow task timeout, and the cancel is seen in the next one. Far short of the 60 s step.
  expect(Date.now() - cancelledAt).toBeLessThan(15_000);
  expect((await harness.client.getState(started.workflowId)).status).toBe('cancelled');
  // The step never stored an answer: the thread holds the user's message only.
  const thread = await harness.stores.messages.listMessages('thread-local-cancel');
  expect(thread.map((r) => mapStoredMessageToChatMessage(r.message).getType())).toEqual(['human']);
});
