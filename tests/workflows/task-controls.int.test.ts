import { ToolMessage, mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { WorkflowNotFoundError } from '@temporalio/client';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const task = (name: string, extra: Record<string, unknown> = {}, subagent_type = 'general-purpose') => ({
  name: 'task',
  args: { description: `Job ${name}`, prompt: `${name}: do it`, subagent_type, ...extra },
});

test('cancelTask on one of three running tasks cancels that one; the other two complete and the run goes on', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Quick1'), task('Slow'), task('Quick2')] }, { content: 'two of three done' }],
    subagents: [
      { match: 'Slow', turns: [{ content: 'late', delay_ms: 60_000 }] },
      { match: '*', turns: [{ content: 'quick result', delay_ms: 1500 }] },
    ],
  });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-cancel-task', runId: 'run-1' });
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length === 3);
  const cancelledAt = Date.now();
  expect(await harness.client.cancelTask(started.workflowId, '0.1')).toEqual({ taskId: '0.1', status: 'cancelled' });
  expect(Date.now() - cancelledAt).toBeLessThan(8_000);
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state.status).toBe('completed');
  expect(state.finalMessageBrief).toBe('two of three done');
  expect(state.tasks.map((t) => [t.taskId, t.status])).toEqual([['0.0', 'completed'], ['0.1', 'cancelled'], ['0.2', 'completed']]);
  const answers = (await harness.stores.messages.listMessages('thread-cancel-task')).map((r) => mapStoredMessageToChatMessage(r.message)).filter((m) => ToolMessage.isInstance(m));
  expect(answers.map((m) => m.content).sort()).toEqual(['Task Succeeded. Result: quick result', 'Task Succeeded. Result: quick result', 'Task cancelled by user.']);

  // Once the run is closed there is nothing to act on.
  await expect(harness.client.cancelTask(started.workflowId, '0.0')).rejects.toBeInstanceOf(WorkflowNotFoundError);
});

test('cancelTask is refused for an unknown task and for one that already ended, naming it', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('Quick'), task('Slow')] }, { content: 'done' }],
    subagents: [
      { match: 'Slow', turns: [{ content: 'late', delay_ms: 60_000 }] },
      { match: '*', turns: [{ content: 'quick' }] },
    ],
  });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-refuse-cancel', runId: 'run-1' });
  await waitFor(async () => (await harness.client.getState(started.workflowId)).tasks.some((t) => t.taskId === '0.0' && t.status === 'completed'));
  await expect(harness.client.cancelTask(started.workflowId, '9.9')).rejects.toThrow("taskId: no task '9.9' in run run-1");
  await expect(harness.client.cancelTask(started.workflowId, '0.0')).rejects.toThrow("taskId: task '0.0' already ended completed");
  await started.handle.cancel();
});

test('a per-call timeout_seconds shortens a task, and one above the configured timeout is clamped to it', async () => {
  const harness = await temporal.start(
    {
      lead: [
        { tool_calls: [task('Short', { timeout_seconds: 1 }), task('Clamped', { timeout_seconds: 99_999 }, 'slowpoke')] },
        { content: 'both timed out' },
      ],
      subagents: [{ match: '*', turns: [{ content: 'too late', delay_ms: 20_000 }] }],
    },
    { subagents: { custom_agents: { slowpoke: { description: 'Takes its time.', system_prompt: 'Be slow.', timeout_seconds: 2 } } } },
  );
  const startedAt = Date.now();
  const { state } = await harness.run({ message: 'go', threadId: 'thread-task-timeout', runId: 'run-1' });
  expect(Date.now() - startedAt).toBeLessThan(15_000);
  expect(state.tasks.map((t) => [t.taskId, t.status, t.error])).toEqual([
    ['0.0', 'timed_out', 'Execution timed out after 1 seconds'],
    ['0.1', 'timed_out', 'Execution timed out after 2 seconds'],
  ]);
});
