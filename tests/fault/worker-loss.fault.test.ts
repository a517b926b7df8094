import { DeerFlowClient } from '../../src/client';
import { waitFor } from '../support/use-temporal';
import { useFaultCluster } from './fault-cluster';

const cluster = useFaultCluster();

test('kill -9 of the worker running a subagent: the lease expires, the task runs again elsewhere, one terminal status, no double counting', async () => {
  const { loaded, stores, configPath } = await cluster.configure(
    {
      lead: [{ tool_calls: [{ name: 'task', args: { description: 'Survive', prompt: 'Survive a crash', subagent_type: 'general-purpose' } }] }, { content: 'survived' }],
      subagents: [{ match: 'Survive', turns: [{ content: 'finished after the crash', delay_ms: 3_000, usage: { input_tokens: 7, output_tokens: 3 } }] }],
    },
    { subagent_runtime: { heartbeat_timeout_seconds: 5 } },
  );
  await cluster.startWorkers(loaded, stores, 'workflows');

  // The only subagent worker is another process; it picks up the task and is killed mid-task.
  await cluster.startWorkerProcess(configPath);
  const client = new DeerFlowClient(cluster.env().client, loaded.config, { agents: stores.agents });
  const started = await client.startRun({ message: 'go', threadId: 'fault-thread', runId: 'run-1' });
  await waitFor(async () => (await stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length === 1);
  await cluster.killWorkerProcess();
  await cluster.startWorkers(loaded, stores, 'subagents');
  await started.handle.result();

  const state = await client.getState(started.workflowId);
  expect(state.status).toBe('completed');
  expect(state.tasks).toEqual([
    expect.objectContaining({
      status: 'completed',
      attempts: 2,
      resultBrief: 'finished after the crash',
      // One attempt's usage, not the sum of both.
      usage: { input_tokens: 7, output_tokens: 3, total_tokens: 10 },
    }),
  ]);
  const events = await stores.events.listEvents({ runId: 'run-1' });
  expect(events.filter((e) => e.event === 'subagent.start')).toHaveLength(1);
  expect(events.filter((e) => e.event === 'subagent.end')).toHaveLength(1);
  const history = await cluster.env().client.workflow.getHandle(started.workflowId).fetchHistory();
  const timedOut = (history.events ?? []).filter((e) => e.activityTaskTimedOutEventAttributes);
  expect(timedOut).toHaveLength(1);
}, 90_000);
