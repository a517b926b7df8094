import { DeerFlowClient } from '../../src/client';
import type { BatchItemRecord } from '../../src/contracts';
import { waitFor } from '../support/use-temporal';
import { useFaultCluster } from './fault-cluster';

const cluster = useFaultCluster();

test('kill -9 of the subagent worker mid-batch: no item lost, none duplicated, the lost attempts are on the rows', async () => {
  const { loaded, stores, configPath } = await cluster.configure(
    { subagents: [{ match: '*', turns: [{ content: 'item done', delay_ms: 2_000 }] }] },
    { subagent_runtime: { max_running: 2 }, subagent_batches: { enabled: true, lease_seconds: 10, poll_interval_seconds: 0.2 } },
  );
  await cluster.startWorkers(loaded, stores, 'workflows');

  // The only subagent worker is another process; it is killed while two items run on it.
  await cluster.startWorkerProcess(configPath);
  const client = new DeerFlowClient(cluster.env().client, loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches });
  const started = await client.startBatch({ title: 'crash', subagentType: 'general-purpose', ownerId: 'ops', items: Array.from({ length: 6 }, (_, i) => ({ prompt: `Item ${i}` })), maxRunningItems: 2 });
  await waitFor(async () => (await stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.start'] })).length === 2);
  await cluster.killWorkerProcess();
  await cluster.startWorkers(loaded, stores, 'subagents');
  const final = await started.handle.result();

  expect(final.counts).toEqual({ pending: 0, running: 0, completed: 6, failed: 0, cancelled: 0, timed_out: 0 });
  const items: BatchItemRecord[] = [];
  for await (const item of client.exportBatchItems(started.batchId, 'ops')) items.push(item);
  expect(items.map((i) => [i.status, i.result])).toEqual(Array.from({ length: 6 }, () => ['completed', 'item done']));
  // The two items running on the killed worker lost their lease: attempt 1 is recorded as lost.
  const lost = items.filter((i) => i.attempts === 2);
  expect(lost).toHaveLength(2);
  for (const item of lost) expect(item.attempt_history.map((a) => [a.attempt, a.outcome])).toEqual([[1, 'lost']]);
  expect(items.filter((i) => i.attempts === 1)).toHaveLength(4);
  // One start and one end event per item: nothing ran twice to completion.
  const events = await stores.events.listEvents({ runId: started.batchId, limit: 1000 });
  for (const type of ['subagent.start', 'subagent.end'] as const) {
    const perItem = events.filter((e) => e.event === type).map((e) => e.taskId);
    expect(perItem).toHaveLength(6);
    expect(new Set(perItem).size).toBe(6);
  }
}, 120_000);
