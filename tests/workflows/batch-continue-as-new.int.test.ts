import { Worker } from '@temporalio/worker';
import { WORKFLOW_TASK_QUEUE, type BatchState } from '../../src/contracts';
import { workflowBundle } from '../../src/worker';
import { batchItemWorkflowId } from '../../src/workflows/batch-messages';
import { useTemporal, waitFor } from '../support/use-temporal';
import type { Harness } from '../support/harness';

const temporal = useTemporal();

// Item `a` runs for a minute; the 40 others answer at once. A history limit of 100 events makes
// the batch continue as new several times while `a` runs.
const SCENARIO = {
  subagents: [
    { match: '/slow item/', turns: [{ content: 'slow done', delay_ms: 60_000 }] },
    { match: '*', turns: [{ content: 'fast done' }] },
  ],
};
const CONFIG = { subagent_batches: { enabled: true, poll_interval_seconds: 0.2, lease_seconds: 10 }, subagent_runtime: { max_running: 4 } };

async function startSlowBatch(h: Harness, ownerId: string) {
  const items = [{ key: 'a', prompt: 'slow item' }, ...Array.from({ length: 40 }, (_, i) => ({ key: `b${String(i).padStart(2, '0')}`, prompt: `fast item ${i}` }))];
  const started = await h.client.startBatch({ title: 'outlive', subagentType: 'general-purpose', ownerId, items, maxLiveItems: 6, maxRunningItems: 3, historyEventLimit: 100 });
  // Every fast item completes while `a` still runs: the runs after the first did not wait for it.
  await waitFor(async () => (await h.stores.batches.getBatch(started.batchId, ownerId))?.counts.completed === 40, 45_000);
  const itemA = temporal.env().client.workflow.getHandle(batchItemWorkflowId(started.batchId, 'a'));
  expect((await itemA.describe()).status.name).toBe('RUNNING');
  // The run in charge counts `a` as running (and in its window) while it runs.
  const state = () => started.handle.query<BatchState>('state');
  await waitFor(async () => (await state()).counts.completed === 40 && (await state()).liveItems === 1);
  expect(await state()).toMatchObject({ liveItems: 1, runningItems: 1, counts: { completed: 40, running: 1, pending: 0 } });
  expect((await state()).continuedRuns).toBeGreaterThanOrEqual(1);
  return { started, itemA };
}

test('a batch continues as new while a slow item runs on; an item an operator terminates later ends failed and the batch ends', async () => {
  const h = await temporal.start(SCENARIO, CONFIG);
  const { started, itemA } = await startSlowBatch(h, 'olga');
  await itemA.terminate('operator stops it');

  // No run is the item's parent any more: the run in charge finds the closed workflow and ends its row.
  const final = await started.handle.result();
  expect(final.continuedRuns).toBeGreaterThanOrEqual(2);
  expect(final).toMatchObject({ status: 'completed', liveItems: 0, runningItems: 0 });
  expect(final.counts).toEqual({ pending: 0, running: 0, completed: 40, failed: 1, cancelled: 0, timed_out: 0 });
  const a = await h.stores.batches.getItem(started.batchId, 'olga', 'a');
  expect(a).toMatchObject({ status: 'failed', attempts: 1, error: "Item workflow closed TERMINATED without writing the item's end" });
  // Its one subagent.end says so; every fast item has its own.
  const ends = await h.stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.end'], limit: 100 });
  expect(ends).toHaveLength(41);
  expect(ends.filter((e) => e.taskId === 'a').map((e) => (e.payload as { status: string }).status)).toEqual(['failed']);
  expect(h.recorder.requests).toHaveLength(41);
}, 90_000);

test('cancelBatch stops an item an earlier run of the batch started', async () => {
  const h = await temporal.start(SCENARIO, CONFIG);
  const { started, itemA } = await startSlowBatch(h, 'pia');

  const result = await h.client.cancelBatch(started.batchId, 'pia');
  expect(result.counts).toEqual({ pending: 0, running: 0, completed: 40, failed: 0, cancelled: 1, timed_out: 0 });
  // The item workflow is cancelled, not left to run out its minute.
  await waitFor(async () => (await itemA.describe()).status.name !== 'RUNNING', 10_000);
  expect((await itemA.describe()).status.name).toBe('COMPLETED');
  expect(await itemA.result()).toMatchObject({ key: 'a', status: 'cancelled' });
  const final = await started.handle.result();
  expect(final).toMatchObject({ status: 'cancelled', counts: result.counts, liveItems: 0 });
  const aEnds = await h.stores.events.listEvents({ runId: started.batchId, eventTypes: ['subagent.end'], taskId: 'a' });
  expect(aEnds.map((e) => (e.payload as { status: string }).status)).toEqual(['cancelled']);
}, 90_000);

test('a batch answers query state before its first store read: the counts it starts from', async () => {
  // Only the subagent queues here, and a workflow worker without activities on `deerflow`: the
  // batch's first step, its store read, is scheduled and never runs.
  const h = await temporal.start(SCENARIO, CONFIG, { queues: 'subagents' });
  const env = temporal.env();
  const workflowsOnly = await Worker.create({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', taskQueue: WORKFLOW_TASK_QUEUE, workflowBundle: await workflowBundle() });
  await workflowsOnly.runUntil(async () => {
    const items = [{ key: 'a', prompt: 'fast item a' }, { key: 'b', prompt: 'fast item b' }];
    const started = await h.client.startBatch({ title: 'unread', subagentType: 'general-purpose', ownerId: 'owner-unread', items, maxLiveItems: 2, maxRunningItems: 1 });
    const events = async () => (await started.handle.fetchHistory()).events ?? [];
    await waitFor(async () => (await events()).some((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'loadBatchProgress'));
    expect(await started.handle.query<BatchState>('state')).toMatchObject({
      status: 'running',
      itemCount: 2,
      counts: { pending: 2, running: 0, completed: 0, failed: 0, cancelled: 0, timed_out: 0 },
      liveItems: 0,
      continuedRuns: 0,
    });
    await started.handle.terminate('test over');
  });
});
