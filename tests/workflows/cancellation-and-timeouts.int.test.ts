import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { WorkflowFailedError } from '@temporalio/client';
import { subagentCheckpointThread } from '../../src/activities/subagent-checkpoint';
import { subagentBacklogReader } from '../../src/worker/subagent-backlog';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const task = (n: number) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: work slowly`, subagent_type: 'general-purpose' } });


test('cancelling a run cancels its running subagents within seconds; each ends cancelled exactly once', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task(1), task(2), task(3)] }, { content: 'unreachable' }], subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }] },
    { subagent_runtime: { max_running: 3 } },
  );
  const h = harness;
  const started = await h.client.startRun({ message: 'go', threadId: 'cancel-run', runId: 'run-1' });
  await waitFor(async () => (await h.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length === 3);
  const cancelledAt = Date.now();
  await started.handle.cancel();
  await expect(started.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  expect(Date.now() - cancelledAt).toBeLessThan(8_000);

  const state = await h.client.getState(started.workflowId);
  expect(state.status).toBe('cancelled');
  expect(state.tasks.map((t) => t.status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  const ends = await h.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.end'] });
  expect(ends.map((e) => (e.payload as { status: string }).status)).toEqual(['cancelled', 'cancelled', 'cancelled']);
  // Nothing completes after the cancel: no late completion can overwrite the terminal status.
  await new Promise((r) => setTimeout(r, 500));
  expect(await h.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.end'] })).toHaveLength(3);

  // The run closed without waiting for its executions to acknowledge (the pinned TRY_CANCEL): three
  // cancel requests, no ActivityTaskCanceled. The executions stop on their next heartbeat anyway,
  // long before their 60 s model turn would have ended.
  const events = (await started.handle.fetchHistory()).events ?? [];
  const runSubagentIds = new Set(
    events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent').map((e) => String(e.eventId)),
  );
  const cancelRequests = events.filter((e) => runSubagentIds.has(String(e.activityTaskCancelRequestedEventAttributes?.scheduledEventId)));
  const acknowledged = events.filter((e) => runSubagentIds.has(String(e.activityTaskCanceledEventAttributes?.scheduledEventId)));
  expect([runSubagentIds.size, cancelRequests.length, acknowledged.length]).toEqual([3, 3, 0]);
  await waitFor(async () => h.workers.subagents?.getStatus().numInFlightNonLocalActivities === 0, 10_000);
});

test('a task still queued when the run is cancelled never calls the model', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task(1), task(2)] }, { content: 'unreachable' }], subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }] },
    { subagent_runtime: { max_running: 1 } },
  );
  const h = harness;
  // Per-response limit is 1 with max_running 1, so ask for 2 and let the second one queue: run two runs.
  const a = await h.client.startRun({ message: 'go', threadId: 'cancel-queued-a', runId: 'run-a' });
  await waitFor(async () => (await h.stores.events.listEvents({ runId: 'run-a', eventTypes: ['subagent.start'] })).length === 1);
  const b = await h.client.startRun({ message: 'go', threadId: 'cancel-queued-b', runId: 'run-b' });
  await waitFor(async () => (await h.client.getState(b.workflowId)).tasks.length === 1);
  await b.handle.cancel();
  await expect(b.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);
  await a.handle.cancel();
  await expect(a.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);

  expect((await h.client.getState(b.workflowId)).tasks.map((t) => t.status)).toEqual(['cancelled']);
  expect(await h.stores.events.listEvents({ runId: 'run-b', eventTypes: ['subagent.start'] })).toEqual([]);
  // Two lead requests (one per run) and a single subagent request: run-b's task never reached a model.
  expect(h.recorder.requests.filter((r) => !r.tags.includes('lead'))).toHaveLength(1);
  // Its call is still answered, so the thread holds no dangling call.
  const transcript = await h.stores.messages.listMessages('cancel-queued-b');
  expect(transcript.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m) => ToolMessage.isInstance(m)).map((m) => m.content)).toEqual([
    'Task cancelled by user.',
  ]);
});

test('a subagent that runs past timeout_seconds ends timed_out with the execution-timeout message and frees its slot', async () => {
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task(1)] }, { tool_calls: [{ name: 'task', args: { description: 'Quick', prompt: 'Quick one', subagent_type: 'general-purpose' } }] }, { content: 'done' }],
      subagents: [
        { match: 'Quick', turns: [{ content: 'quick done' }] },
        { match: '*', turns: [{ content: 'too late', delay_ms: 30_000 }] },
      ],
    },
    { subagent_runtime: { max_running: 1 }, subagents: { timeout_seconds: 2 } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'timeout-run', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => [t.status, t.error])).toEqual([
    ['timed_out', 'Execution timed out after 2 seconds'],
    ['completed', null],
  ]);
  const transcript = await harness.stores.messages.listMessages('timeout-run');
  const tools = transcript.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m) => ToolMessage.isInstance(m));
  expect(tools[0]?.content).toBe('Task timed out. Error: Execution timed out after 2 seconds');
  expect(tools[0]?.additional_kwargs).toMatchObject({ subagent_status: 'timed_out', subagent_error: 'Execution timed out after 2 seconds' });
  // The timed-out execution's checkpoints are gone with its end: nothing can resume it.
  const thread = subagentCheckpointThread({ threadId: 'timeout-run', runId: 'run-1', taskId: state.tasks[0]?.taskId ?? '' }, 1);
  await waitFor(async () => (await harness.stores.checkpoints.getTuple({ configurable: { thread_id: thread, checkpoint_ns: '' } })) === undefined, 10_000);
});

test('a task that waits longer than queue_timeout_seconds for a slot fails before any model call', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task(1)] }, { content: 'done' }], subagents: [{ match: '*', turns: [{ content: 'slow', delay_ms: 6_000 }] }] },
    { subagent_runtime: { max_running: 1, queue_timeout_seconds: 1 } },
  );
  const h = harness;
  const blocker = await h.client.startRun({ message: 'go', threadId: 'queue-blocker', runId: 'run-blocker' });
  await waitFor(async () => (await h.stores.events.listEvents({ runId: 'run-blocker', eventTypes: ['subagent.start'] })).length === 1);
  const { state } = await h.run({ message: 'go', threadId: 'queue-waiter', runId: 'run-waiter' });
  expect(state.tasks.map((t) => [t.status, t.error])).toEqual([['failed', 'Timed out after 1s waiting for a subagent execution slot']]);
  expect(await h.stores.events.listEvents({ runId: 'run-waiter', eventTypes: ['subagent.start'] })).toEqual([]);
  await blocker.handle.result();
  expect(h.recorder.requests.filter((r) => !r.tags.includes('lead'))).toHaveLength(1);
});

test('the safety net gives up on a task not done within timeout + grace after dispatch: polling_timed_out', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task(1)] }, { content: 'done' }], subagents: [{ match: '*', turns: [{ content: 'never' }] }] },
    { subagent_runtime: { queue_timeout_seconds: 60, polling_grace_seconds: 1 }, subagents: { timeout_seconds: 2 } },
  );
  // No subagent worker is polling (all down): the task waits in the queue until the net fires at 2 + 1 s.
  harness.workers.subagents?.shutdown();
  const started = Date.now();
  const { state } = await harness.run({ message: 'go', threadId: 'net-victim', runId: 'run-victim' });
  expect(Date.now() - started).toBeLessThan(6_000);
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => [t.status, t.error])).toEqual([
    ['polling_timed_out', 'Task polling timed out after 0 minutes. This may indicate the background task is stuck. Status: running'],
  ]);
  const h = harness;
  expect(await h.stores.events.listEvents({ runId: 'run-victim', eventTypes: ['subagent.start'] })).toEqual([]);
  const ends = await h.stores.events.listEvents({ runId: 'run-victim', eventTypes: ['subagent.end'] });
  expect(ends.map((e) => (e.payload as { status: string }).status)).toEqual(['timed_out']);
  const transcript = await h.stores.messages.listMessages('net-victim');
  const tool = transcript.map((r) => mapStoredMessageToChatMessage(r.message)).find((m) => ToolMessage.isInstance(m));
  expect(tool?.content).toBe('Task polling timed out after 0 minutes. This may indicate the background task is stuck. Status: running');
  expect(tool?.additional_kwargs['subagent_status']).toBe('polling_timed_out');
  expect(h.recorder.requests.filter((r) => !r.tags.includes('lead'))).toHaveLength(0);
});

test('one safety-net timer watches all of a response\'s tasks: it gives up on each at its own deadline, then re-arms', async () => {
  const timed = (n: number, seconds: number) => ({ ...task(n), args: { ...task(n).args, timeout_seconds: seconds } });
  const harness = await temporal.start(
    { lead: [{ tool_calls: [timed(1, 2), timed(2, 1)] }, { content: 'done' }], subagents: [{ match: '*', turns: [{ content: 'never' }] }] },
    { subagent_runtime: { queue_timeout_seconds: 60, polling_grace_seconds: 1 }, subagents: { timeout_seconds: 2 } },
  );
  // Nothing picks the executions up: each task waits until the net gives up on it, at 2 + 1 s and 1 + 1 s.
  harness.workers.subagents?.shutdown();
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'net-two', runId: 'run-two' });
  expect(state.tasks.map((t) => [t.taskId, t.status])).toEqual([
    ['0.0', 'polling_timed_out'],
    ['0.1', 'polling_timed_out'],
  ]);
  const history = await temporal.env().client.workflow.getHandle(workflowId).fetchHistory();
  const count = (type: string) => (history.events ?? []).filter((e) => e[type as keyof typeof e] != null).length;
  // Armed for task 0.1 (2 s), fired, re-armed for task 0.0 (1 s more), fired: no timer per task, none left to cancel.
  expect([count('timerStartedEventAttributes'), count('timerFiredEventAttributes'), count('timerCanceledEventAttributes')]).toEqual([2, 2, 0]);
});

describe('admission', () => {
  const blockingScenario = {
    lead: [{ tool_calls: [task(1)] }, { content: 'done' }],
    subagents: [{ match: '*', turns: [{ content: 'slow', delay_ms: 15_000 }] }],
  };

  /**
   * Executions the tests above left on the subagent queue (workers they shut down, tasks their
   * safety net gave up on) count as queued until the new workers' pollers drain them and Temporal's
   * statistics catch up: admission would refuse the blocker itself.
   */
  async function untilSubagentQueueEmpty(): Promise<void> {
    const env = temporal.env();
    await waitFor(async () => (await subagentBacklogReader(env.nativeConnection, env.namespace ?? 'default')()) === 0);
  }

  test('reject policy: with every slot busy a task is refused with the capacity-full error and never calls a model', async () => {
    const harness = await temporal.start(blockingScenario, { subagent_runtime: { max_running: 1, admission_policy: 'reject' } });
    const h = harness;
    await untilSubagentQueueEmpty();
    const blocker = await h.client.startRun({ message: 'go', threadId: 'reject-blocker', runId: 'run-blocker' });
    await waitFor(async () => (await h.stores.events.listEvents({ runId: 'run-blocker', eventTypes: ['subagent.start'] })).length === 1);
    const started = Date.now();
    const { state } = await h.run({ message: 'go', threadId: 'reject-victim', runId: 'run-victim' });
    expect(Date.now() - started).toBeLessThan(7_000);
    expect(state.tasks.map((t) => [t.status, t.errorCode, t.attempts])).toEqual([['failed', 'capacity_rejected', 1]]);
    expect(state.tasks[0]?.error).toMatch(/^Subagent execution capacity is full \(1 running, \d+ queued\)$/);
    expect(await h.stores.events.listEvents({ runId: 'run-victim', eventTypes: ['subagent.start'] })).toEqual([]);
    await blocker.handle.cancel();
    expect(h.recorder.requests.filter((r) => !r.tags.includes('lead'))).toHaveLength(1);
  });

  test('queue policy: beyond max_queued waiting tasks a task is refused at once (attempts 0)', async () => {
    const harness = await temporal.start(blockingScenario, { subagent_runtime: { max_running: 1, max_queued: 1 } });
    const h = harness;
    await untilSubagentQueueEmpty();
    const blocker = await h.client.startRun({ message: 'go', threadId: 'queue-blocker-1', runId: 'run-b1' });
    await waitFor(async () => (await h.stores.events.listEvents({ runId: 'run-b1', eventTypes: ['subagent.start'] })).length === 1);
    const waiting = await h.client.startRun({ message: 'go', threadId: 'queue-waiting', runId: 'run-w' });
    await waitFor(async () => (await h.client.getState(waiting.workflowId)).tasks[0]?.status === 'running');
    // Temporal serves task-queue stats from a cache refreshed every few seconds: the bound is approximate.
    await new Promise((r) => setTimeout(r, 6_000));
    const { state } = await h.run({ message: 'go', threadId: 'queue-refused', runId: 'run-r' });
    expect(state.tasks.map((t) => [t.status, t.errorCode, t.attempts])).toEqual([['failed', 'capacity_rejected', 0]]);
    expect(state.tasks[0]?.error).toBe('Subagent execution capacity is full (1 running, 1 queued)');
    await blocker.handle.cancel();
    await waiting.handle.cancel();
  });
});
