import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AIMessage, HumanMessage, mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { WorkflowNotFoundError } from '@temporalio/client';
import { RunNotWaitingError } from '../../src/client';
import { buildRunReport } from '../../src/cli/run-report';
import { SA_RUN_STATUS } from '../../src/contracts';
import type { Harness } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const QUESTION = 'Which file should I read: notes.txt or todo.txt?';
const asks = { lead: [{ tool_calls: [{ name: 'ask_clarification', args: { question: QUESTION } }] }, { content: 'Reading notes.txt as you said.' }] };

async function waitUntilAsked(harness: Harness, runId = 'run-1'): Promise<void> {
  await waitFor(async () => (await harness.stores.events.listEvents({ runId, eventTypes: ['clarification.asked'] })).length === 1);
}

test('the lead asks a question, the run waits, and the answer becomes the next user message of the same run', async () => {
  const harness = await temporal.start(asks);
  const started = await harness.client.startRun({ message: 'read my file', threadId: 'thread-ask', runId: 'run-1' });
  await waitUntilAsked(harness);
  const waiting = await harness.client.getState(started.workflowId);
  expect(waiting).toMatchObject({ status: 'running', question: { callId: '0.0', text: QUESTION } });
  expect((await started.handle.describe()).typedSearchAttributes.get(SA_RUN_STATUS)).toBe('waiting_for_answer');

  expect(await harness.client.answer(started.workflowId, '  notes.txt  ')).toEqual({ callId: '0.0', question: QUESTION });
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state).toMatchObject({ status: 'completed', question: null, finalMessageBrief: 'Reading notes.txt as you said.' });

  // The thread: the call answered at once, then the user's answer, then the lead's next response.
  const thread = (await harness.stores.messages.listMessages('thread-ask')).map((r) => mapStoredMessageToChatMessage(r.message));
  expect(thread.map((m) => m.getType())).toEqual(['human', 'ai', 'tool', 'human', 'ai']);
  expect(thread[2]?.content).toBe(`Asked the user: ${QUESTION}\nTheir answer follows as their next message.`);
  expect(thread[3]?.content).toBe('notes.txt');
  // The model saw the answer framed as user input, after the answered call.
  const second = harness.recorder.requests.filter((r) => r.tags.includes('lead'))[1]?.messages ?? [];
  expect(second.at(-1)).toBeInstanceOf(HumanMessage);
  expect(second.at(-1)?.content).toBe('--- BEGIN USER INPUT ---\nnotes.txt\n--- END USER INPUT ---');
  expect(second.filter((m) => AIMessage.isInstance(m) || ToolMessage.isInstance(m))).toHaveLength(2);
  // The run offered the tool.
  expect(harness.recorder.requests[0]?.tools).toContain('ask_clarification');
  const events = await harness.stores.events.listEvents({ runId: 'run-1', threadId: 'thread-ask' });
  expect(events.map((e) => e.event)).toEqual(['clarification.asked', 'clarification.answered']);

  // The run is closed: nothing is waiting any more.
  await expect(harness.client.answer(started.workflowId, 'too late')).rejects.toBeInstanceOf(WorkflowNotFoundError);
});

test('an answer to a run that is not waiting is refused, naming why', async () => {
  const harness = await temporal.start({ lead: [{ content: 'slow', delay_ms: 5_000 }] });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-not-waiting', runId: 'run-1' });
  const refused = harness.client.answer(started.workflowId, 'hello');
  await expect(refused).rejects.toBeInstanceOf(RunNotWaitingError);
  await expect(refused).rejects.toThrow('answer: run run-1 is not waiting for an answer');
  await started.handle.cancel();
});

test('a question nobody answers in time ends the run needs_input with the question as its final message', async () => {
  const harness = await temporal.start(asks, { agents: { default: { clarification_timeout_seconds: 1 } } });
  const { state, workflowId } = await harness.run({ message: 'read my file', threadId: 'thread-unanswered', runId: 'run-1' });
  expect(state).toMatchObject({ status: 'needs_input', question: { text: QUESTION } });
  const report = await buildRunReport(harness.stores, state, workflowId);
  expect(report).toMatchObject({ status: 'needs_input', final_message: QUESTION });
  expect(report.events).toEqual({ 'clarification.asked': 1, 'clarification.timed_out': 1 });
  expect((await temporal.env().client.workflow.getHandle(workflowId).describe()).typedSearchAttributes.get(SA_RUN_STATUS)).toBe('needs_input');
});

test('an answer after a worker restart resumes the same run', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-test-'));
  try {
    const first = await temporal.start(asks, {}, { dir });
    const started = await first.client.startRun({ message: 'read my file', threadId: 'thread-restart', runId: 'run-1' });
    await waitUntilAsked(first);
    // Every worker goes away while the run waits: no slot is held, the wait is in Temporal.
    await first.close();
    const second = await temporal.start(asks, {}, { dir });
    await second.client.answer(started.workflowId, 'todo.txt');
    await started.handle.result();
    const state = await second.client.getState(started.workflowId);
    expect(state).toMatchObject({ status: 'completed', finalMessageBrief: 'Reading notes.txt as you said.' });
    expect((await started.handle.describe()).runId).toBe(started.handle.firstExecutionRunId);
    const thread = (await second.stores.messages.listMessages('thread-restart')).map((r) => mapStoredMessageToChatMessage(r.message));
    expect(thread[3]?.content).toBe('todo.txt');
    await second.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
