import { Client } from '@temporalio/client';
import { buildLeadRunInput, DeerFlowClient, leadRunStartOptions } from '../../src/client';
import { WORKFLOW_TYPES, type LeadRunState } from '../../src/contracts';
import type { Harness } from '../support/harness';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const oneTask = {
  lead: [{ tool_calls: [{ name: 'task', args: { subagent_type: 'general-purpose', description: 'one', prompt: 'Do the one thing' } }] }, { content: 'all done' }],
  subagents: [{ match: '*', turns: [{ content: 'did it' }] }],
};

/** A Temporal client on the connection the harnesses' workers poll with, as `npm start` builds it. */
function temporalOnWorkerConnection(): Client {
  const env = temporal.env();
  return new Client({ connection: env.nativeConnection, namespace: env.namespace ?? 'default' });
}

function clientOnWorkerConnection(harness: Harness, eagerStart: boolean): DeerFlowClient {
  const { stores } = harness;
  return new DeerFlowClient(temporalOnWorkerConnection(), harness.loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches }, { eagerStart });
}

test("a run started with eagerStart on its workers' connection hands its first workflow task to them and completes", async () => {
  const harness = await temporal.start(oneTask);
  const started = await clientOnWorkerConnection(harness, true).startRun({ message: 'go', userId: 'u' });
  expect(started.handle.eagerlyStarted).toBe(true);
  const state = (await started.handle.result()) as LeadRunState;
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => [t.status, t.resultBrief])).toEqual([['completed', 'did it']]);
});

test('without eagerStart the same client starts runs the ordinary way', async () => {
  const harness = await temporal.start(oneTask);
  const started = await clientOnWorkerConnection(harness, false).startRun({ message: 'go', userId: 'u' });
  expect(started.handle.eagerlyStarted).toBe(false);
  expect((await started.handle.result()).status).toBe('completed');
});

test('a batch started with eagerStart starts eagerly and runs its items', async () => {
  const harness = await temporal.start(
    { subagents: [{ match: '*', turns: [{ content: 'item done' }] }] },
    { subagent_batches: { enabled: true, poll_interval_seconds: 0.2 } },
  );
  const started = await clientOnWorkerConnection(harness, true).startBatch({
    title: 'eager',
    subagentType: 'general-purpose',
    items: [{ prompt: 'Item 1' }, { prompt: 'Item 2' }],
    ownerId: 'alice',
  });
  expect(started.eagerlyStarted).toBe(true);
  const final = await started.handle.result();
  expect(final.counts).toEqual({ pending: 0, running: 0, completed: 2, failed: 0, cancelled: 0, timed_out: 0 });
});

test('with no workflow worker on the connection an eager start is an ordinary one: the run waits on the queue', async () => {
  // This process serves the subagent queues only: no local worker can take the workflow task.
  const harness = await temporal.start(oneTask, {}, { queues: 'subagents' });
  const input = buildLeadRunInput(harness.loaded.config, { message: 'go', threadId: 'eager-fallback', runId: 'run-1', userId: 'u' });
  const handle = await temporalOnWorkerConnection().workflow.start(WORKFLOW_TYPES.leadRun, { ...leadRunStartOptions(input), requestEagerStart: true });
  expect(handle.eagerlyStarted).toBe(false);
  // Started, and its first workflow task scheduled on the queue; none took it.
  const events = (await handle.fetchHistory()).events ?? [];
  expect(events.map((e) => [e.workflowExecutionStartedEventAttributes != null, e.workflowTaskScheduledEventAttributes != null])).toEqual([
    [true, false],
    [false, true],
  ]);
  await handle.terminate('test over');
});
