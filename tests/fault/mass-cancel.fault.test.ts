import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { DeerFlowClient } from '../../src/client';
import type { SubagentEndPayload } from '../../src/contracts';
import { waitFor } from '../support/use-temporal';
import { useFaultCluster } from './fault-cluster';
import { quantile, recordFaultFigures } from './fault-figures';

const cluster = useFaultCluster();

const RUNS = 100;
const TASKS_PER_RUN = 3;
// 5 x 64 slots hold all 300 subagents at once (64 is the maximum of max_running per worker).
const SUBAGENT_WORKERS = 5;
const CANCEL_WITHIN_MS = 10_000;
// Long enough that no subagent finishes before every one has started; short enough that one whose
// abort were lost would finish (and be caught) while the test still watches.
const SUBAGENT_DELAY_MS = 25_000;

const task = (n: number) => ({ name: 'task', args: { description: `Slow ${n}`, prompt: `Slow ${n}: take your time`, subagent_type: 'general-purpose' } });

test(`cancelling ${RUNS} runs with ${TASKS_PER_RUN} running subagents each: all cancelled within ${CANCEL_WITHIN_MS / 1000} s, nothing completes after, one subagent.end per task`, async () => {
  const { loaded, stores } = await cluster.configure(
    {
      lead: [{ tool_calls: Array.from({ length: TASKS_PER_RUN }, (_, i) => task(i + 1)) }, { content: 'unreachable' }],
      subagents: [{ match: '*', turns: [{ content: 'finished anyway', delay_ms: SUBAGENT_DELAY_MS }] }],
    },
    { subagent_runtime: { max_running: 64, max_queued: 1_000 } },
  );
  await cluster.startWorkers(loaded, stores, 'workflows');
  for (let i = 0; i < SUBAGENT_WORKERS; i++) await cluster.startWorkers(loaded, stores, 'subagents', { ownConnection: true });
  const client = new DeerFlowClient(cluster.env().client, loaded.config, { agents: stores.agents });
  const began = Date.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => client.startRun({ message: 'go', threadId: `cancel-thread-${i}`, runId: `cancel-run-${i}` })));

  // Every subagent of every run is executing (its start event is written by the running activity).
  const startedCount = async (): Promise<number> => {
    let n = 0;
    for (const run of runs) n += (await stores.events.listEvents({ runId: run.runId, eventTypes: ['subagent.start'] })).length;
    return n;
  };
  await waitFor(async () => (await startedCount()) === RUNS * TASKS_PER_RUN, 60_000);
  const allRunning = Date.now();

  const cancelMs = await Promise.all(
    runs.map(async (run) => {
      const requested = Date.now();
      await run.handle.cancel();
      await run.handle.result().catch(() => undefined);
      return Date.now() - requested;
    }),
  );
  const allCancelled = Date.now();
  // A subagent whose abort was lost would finish SUBAGENT_DELAY_MS after it started: wait past that.
  await new Promise((r) => setTimeout(r, Math.max(0, allRunning + SUBAGENT_DELAY_MS + 2_000 - Date.now())));

  let notCancelled = 0;
  let tasksNotCancelled = 0;
  let missingEnds = 0;
  let duplicateEnds = 0;
  let endsNotCancelled = 0;
  let toolMessagesNotCancelled = 0;
  let slow = 0;
  for (const [i, run] of runs.entries()) {
    const state = await client.getState(run.workflowId);
    if (state.status !== 'cancelled' || (await run.handle.describe()).status.name !== 'CANCELLED') notCancelled += 1;
    if ((cancelMs[i] ?? Infinity) > CANCEL_WITHIN_MS) slow += 1;
    const ends = await stores.events.listEvents({ runId: run.runId, eventTypes: ['subagent.end'], limit: 1000 });
    for (const t of state.tasks) {
      if (t.status !== 'cancelled') tasksNotCancelled += 1;
      const mine = ends.filter((e) => e.taskId === t.taskId);
      if (mine.length === 0) missingEnds += 1;
      duplicateEnds += Math.max(0, mine.length - 1);
      endsNotCancelled += mine.filter((e) => (e.payload as SubagentEndPayload).status !== 'cancelled').length;
    }
    tasksNotCancelled += Math.max(0, TASKS_PER_RUN - state.tasks.length);
    const transcript = (await stores.messages.listMessages(`cancel-thread-${i}`)).map((r) => mapStoredMessageToChatMessage(r.message));
    const answers = transcript.filter((m) => ToolMessage.isInstance(m));
    toolMessagesNotCancelled += Math.abs(TASKS_PER_RUN - answers.length) + answers.filter((m) => m.content !== 'Task cancelled by user.').length;
  }
  const lost = {
    'runs not cancelled': notCancelled,
    [`runs cancelled after ${CANCEL_WITHIN_MS / 1000} s`]: slow,
    'tasks not cancelled': tasksNotCancelled,
    'missing subagent.end': missingEnds,
    'duplicate subagent.end': duplicateEnds,
    'subagent.end not cancelled': endsNotCancelled,
    'tool messages not "cancelled"': toolMessagesNotCancelled,
  };
  recordFaultFigures('r3-mass-cancel', {
    title: 'R3 cancel runs with running subagents',
    runs: RUNS,
    tasks: RUNS * TASKS_PER_RUN,
    faults: { 'runs cancelled': RUNS },
    lost,
    measured: {
      'time to cancel p50 (ms)': quantile(cancelMs, 0.5),
      'time to cancel max (ms)': Math.max(...cancelMs),
      'seconds until all subagents ran': Math.round((allRunning - began) / 100) / 10,
      'seconds to cancel all': Math.round((allCancelled - allRunning) / 100) / 10,
    },
    seconds: Math.round((Date.now() - began) / 100) / 10,
  });

  expect(lost).toEqual(Object.fromEntries(Object.keys(lost).map((k) => [k, 0])));
}, 180_000);
