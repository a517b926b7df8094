import type { ChildProcess } from 'node:child_process';
import { DeerFlowClient } from '../../src/client';
import { ModelRequestRecorder } from '../support/model-request-recorder';
import { waitFor } from '../support/use-temporal';
import { useFaultCluster } from './fault-cluster';
import { startSubagentWorkerProcess } from './subagent-worker-process';

const cluster = useFaultCluster();
const GRACE_SECONDS = 10;
const HEARTBEAT_TIMEOUT_SECONDS = 30;

let worker: ChildProcess | null = null;
afterAll(() => {
  if (worker !== null && worker.exitCode === null && worker.signalCode === null) worker.kill('SIGKILL');
});

const task = (description: string) => ({ name: 'task', args: { description, prompt: `${description} task`, subagent_type: 'general-purpose' } });

test('SIGTERM with 3 running subagents: the one that ends within the grace completes there; the others resume elsewhere at once', async () => {
  const { loaded, stores, configPath } = await cluster.configure(
    {
      lead: [{ tool_calls: [task('Quick'), task('Slow one'), task('Slow two')] }, { content: 'all three done' }],
      subagents: [
        { match: 'Quick', turns: [{ content: 'quick done', delay_ms: 2_000 }] },
        // One quick tool round, then a model call far longer than the grace on the first attempt;
        // the next attempt resumes after the tool round and answers at once.
        { match: 'Slow', attempt: 1, turns: [{ tool_calls: [{ name: 'ls', args: { path: '/mnt/user-data' } }] }, { content: 'never', delay_ms: 120_000 }] },
        { match: 'Slow', turns: [{ tool_calls: [{ name: 'ls', args: { path: '/mnt/user-data' } }] }, { content: 'slow done elsewhere' }] },
      ],
    },
    {
      worker: { shutdown_grace_seconds: GRACE_SECONDS },
      subagent_runtime: { max_running: 3, heartbeat_timeout_seconds: HEARTBEAT_TIMEOUT_SECONDS },
    },
  );
  await cluster.startWorkers(loaded, stores, 'workflows');
  const proc = await startSubagentWorkerProcess(configPath, cluster.env().address);
  worker = proc;
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));

  const client = new DeerFlowClient(cluster.env().client, loaded.config, { agents: stores.agents });
  const started = await client.startRun({ message: 'go', threadId: 'graceful-thread', runId: 'run-1' });
  await waitFor(async () => (await stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length === 3);

  const signalledAt = Date.now();
  proc.kill('SIGTERM');
  // The replacement worker is up before the grace ends; nothing reaches it until the old one lets go.
  const recorder = new ModelRequestRecorder();
  await cluster.startWorkers(loaded, stores, 'subagents', { modelCallbacks: [recorder] });
  await started.handle.result();
  const finishedAfterMs = Date.now() - signalledAt;

  // The old worker stopped by itself, cleanly, once its grace was over.
  expect(await exited).toBe(0);
  const state = await client.getState(started.workflowId);
  expect(state.status).toBe('completed');
  const byDescription = Object.fromEntries(state.tasks.map((t) => [t.description, t]));
  expect(byDescription['Quick']).toMatchObject({ status: 'completed', attempts: 1, resultBrief: 'quick done' });
  for (const slow of ['Slow one', 'Slow two']) {
    // The tool round (an assistant turn and its result) was taken over, not run again.
    expect(byDescription[slow]).toMatchObject({ status: 'completed', attempts: 2, resumedSteps: 2, resultBrief: 'slow done elsewhere' });
  }
  // The replacement worker made one model call per slow task: only the unfinished one.
  expect(recorder.requests).toHaveLength(2);
  // Retried at the end of the grace, not after a heartbeat timeout.
  expect(finishedAfterMs).toBeGreaterThanOrEqual(GRACE_SECONDS * 1000 - 1_000);
  expect(finishedAfterMs).toBeLessThan((GRACE_SECONDS + HEARTBEAT_TIMEOUT_SECONDS / 2) * 1000);

  const history = await cluster.env().client.workflow.getHandle(started.workflowId).fetchHistory();
  expect((history.events ?? []).filter((e) => e.activityTaskTimedOutEventAttributes)).toHaveLength(0);
  const failures = (history.events ?? []).flatMap((e) => (e.activityTaskFailedEventAttributes ? [e.activityTaskFailedEventAttributes.failure?.applicationFailureInfo?.type] : []));
  expect(failures).toEqual(['WorkerShutdown', 'WorkerShutdown']);
  const ends = await stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.end'] });
  expect(ends).toHaveLength(3);
}, 120_000);
