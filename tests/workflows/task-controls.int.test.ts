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

const slowpoke = { subagents: { custom_agents: { slowpoke: { description: 'Takes its time.', system_prompt: 'Be slow.', timeout_seconds: 2 } } } };

test('extendTask lets a task that would have timed out complete, and moves its safety net with it', async () => {
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task('Patient', {}, 'slowpoke')] }, { content: 'it finished' }],
      subagents: [{ match: '*', turns: [{ content: 'done after 4 s', delay_ms: 4000 }] }],
    },
    // A 1 s grace: without the extension the safety net would fire at 3 s as well.
    { ...slowpoke, subagent_runtime: { polling_grace_seconds: 1 } },
  );
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-extend', runId: 'run-1' });
  await waitFor(async () => (await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length === 1);
  expect(await harness.client.extendTask(started.workflowId, '0.0', 10)).toEqual({ taskId: '0.0', timeoutSeconds: 12, extendedSeconds: 10 });
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state.tasks.map((t) => [t.status, t.extendedSeconds, t.resultBrief])).toEqual([['completed', 10, 'done after 4 s']]);
  expect(state.finalMessageBrief).toBe('it finished');
});

test('extensions stop at subagent_runtime.max_task_extension_seconds, and a finished task cannot be extended', async () => {
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task('Patient', {}, 'slowpoke'), task('Quick')] }, { content: 'done' }],
      subagents: [
        { match: 'Patient', turns: [{ content: 'late', delay_ms: 60_000 }] },
        { match: '*', turns: [{ content: 'quick' }] },
      ],
    },
    { ...slowpoke, subagent_runtime: { max_task_extension_seconds: 5 } },
  );
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-extend-cap', runId: 'run-1' });
  await waitFor(async () => (await harness.client.getState(started.workflowId)).tasks.some((t) => t.taskId === '0.1' && t.status === 'completed'));
  expect(await harness.client.extendTask(started.workflowId, '0.0', 100)).toEqual({ taskId: '0.0', timeoutSeconds: 7, extendedSeconds: 5 });
  await expect(harness.client.extendTask(started.workflowId, '0.0', 1)).rejects.toThrow("seconds: task '0.0' is already extended by 5 s, the most this run allows");
  await expect(harness.client.extendTask(started.workflowId, '0.1', 5)).rejects.toThrow("taskId: task '0.1' already ended completed");
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  // Its deadline was 2 + 5 s: it timed out then, with that number.
  expect(state.tasks[0]).toMatchObject({ status: 'timed_out', error: 'Execution timed out after 7 seconds', extendedSeconds: 5 });
});
