import { writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import type { Client } from '@temporalio/client';
import { defaultPayloadConverter } from '@temporalio/common';
import { temporal } from '@temporalio/proto';
import { stringify } from 'yaml';
import { DeerFlowClient, type StartedRun } from '../../src/client';
import type { SubagentEndPayload, TokenUsage } from '../../src/contracts';
import { waitFor } from '../support/use-temporal';
import { useFaultCluster } from './fault-cluster';
import { recordFaultFigures } from './fault-figures';

const cluster = useFaultCluster();

const RUNS = 10;
const TASKS_PER_RUN = 2;
const KILLS = 20;
const LANES = 2;
// Turn 1 ends after >= 1 s, the task after >= 4 s (delays are lower bounds on a loaded machine):
// a kill within KILL_WINDOW_MS of the execution's start always lands before it could finish.
const TURN_ONE_MS = 1_000;
const TURN_TWO_MS = 3_000;
const KILL_WINDOW_MS = 3_000;
const TURN_USAGE = [
  { input_tokens: 11, output_tokens: 3 },
  { input_tokens: 17, output_tokens: 5 },
] as const;
// One attempt's usage: both scripted turns once. A retried task must report this, not a sum of attempts.
const ONE_ATTEMPT: TokenUsage = { input_tokens: 28, output_tokens: 8, total_tokens: 36 };

const task = (n: number) => ({ name: 'task', args: { description: `Part ${n}`, prompt: `Part ${n}: work through a crash`, subagent_type: 'general-purpose' } });

/** A `runSubagent` execution as Temporal reports it on its run. */
interface StartedExecution {
  readonly workflowId: string;
  readonly activityId: string;
  /** The workflow's attempt for the task: `taskId` is 1, `taskId#n` is n. */
  readonly attempt: number;
  readonly startedAtMs: number;
  /** Steps the execution reported in its last heartbeat: >= 1 once its first turn's usage is out. */
  readonly heartbeatSteps: number;
}

/** The executions `identity` (the worker process) holds right now, across `runs`. */
async function executionsOn(client: Client, runs: readonly StartedRun[], identity: string): Promise<StartedExecution[]> {
  const found: StartedExecution[] = [];
  for (const run of runs) {
    const { raw } = await client.workflow.getHandle(run.workflowId).describe();
    for (const pending of raw.pendingActivities ?? []) {
      if (pending.state !== temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_STARTED) continue;
      if (pending.lastWorkerIdentity !== identity) continue;
      const activityId = pending.activityId ?? '';
      const started = pending.lastStartedTime;
      const details = pending.heartbeatDetails?.payloads?.[0];
      const progress = details ? defaultPayloadConverter.fromPayload<{ steps?: number }>(details) : undefined;
      found.push({
        workflowId: run.workflowId,
        activityId,
        attempt: Number(activityId.split('#')[1] ?? 1),
        startedAtMs: Number(started?.seconds ?? 0) * 1000 + Math.floor((started?.nanos ?? 0) / 1e6),
        heartbeatSteps: progress?.steps ?? 0,
      });
    }
  }
  return found;
}

test(`kill -9 of the subagent worker ${KILLS} times across ${RUNS} runs: every run completes, one subagent.end per task, usage counted once, no duplicate tool message`, async () => {
  const { loaded, stores, configPath } = await cluster.configure(
    {
      lead: [{ tool_calls: Array.from({ length: TASKS_PER_RUN }, (_, i) => task(i + 1)) }, { content: 'all parts done' }],
      subagents: [
        {
          match: '*',
          turns: [
            { tool_calls: [{ name: 'bash', args: { command: 'echo part' } }], usage: TURN_USAGE[0], delay_ms: TURN_ONE_MS },
            { content: 'part finished', usage: TURN_USAGE[1], delay_ms: TURN_TWO_MS },
          ],
        },
      ],
    },
    { sandbox: { allow_host_bash: true }, subagent_runtime: { heartbeat_timeout_seconds: 5, max_running: 8 } },
  );
  // The killed process has one slot: what it runs at the moment of a kill is exactly what describe showed.
  const processConfig = join(dirname(configPath), 'process-config.yaml');
  writeFileSync(
    processConfig,
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      sandbox: { allow_host_bash: true },
      subagent_runtime: { heartbeat_timeout_seconds: 5, max_running: 1 },
    }),
  );
  await cluster.startWorkers(loaded, stores, 'workflows');
  const client = new DeerFlowClient(cluster.env().client, loaded.config, { agents: stores.agents });
  const began = Date.now();
  const runs = await Promise.all(Array.from({ length: RUNS }, (_, i) => client.startRun({ message: 'go', threadId: `kill-thread-${i}`, runId: `kill-run-${i}` })));

  // Each cycle: a fresh worker process takes one execution, and is killed while it runs it, either
  // at once or after the first turn (its usage already reported in a heartbeat). An execution on
  // attempt 3 is never killed: the task's attempt budget is 3 and the run must complete. Two lanes
  // of cycles overlap, so one process starts while the other runs.
  const temporalClient = cluster.env().client;
  const killedPerTask = new Map<string, number>();
  let afterFirstTurn = 0;
  const inWindow = (e: StartedExecution): boolean => Date.now() - e.startedAtMs < KILL_WINDOW_MS - 300;
  const killCycle = async (kill: number): Promise<void> => {
    const pid = await cluster.startWorkerProcess(processConfig);
    const identity = `${pid}@${hostname()}`;
    let target: StartedExecution | undefined;
    await waitFor(async () => {
      const [running] = await executionsOn(temporalClient, runs, identity);
      target = running !== undefined && running.attempt < 3 && inWindow(running) ? running : undefined;
      return target !== undefined;
    }, 60_000);
    if (target === undefined) throw new Error('no execution to kill');
    const chosen: StartedExecution = target;
    if (kill % 2 === 0) {
      // Every other kill waits (within the window) for the heartbeat that reports the first turn.
      let reported = chosen.heartbeatSteps > 0;
      while (!reported && inWindow(chosen)) {
        await new Promise((r) => setTimeout(r, 50));
        const own = runs.filter((r) => r.workflowId === chosen.workflowId);
        reported = ((await executionsOn(temporalClient, own, identity)).find((e) => e.activityId === chosen.activityId)?.heartbeatSteps ?? 0) > 0;
      }
      if (reported) afterFirstTurn += 1;
    }
    await cluster.killWorkerProcess(pid);
    const key = `${chosen.workflowId}/${chosen.activityId.split('#')[0] ?? chosen.activityId}`;
    killedPerTask.set(key, (killedPerTask.get(key) ?? 0) + 1);
  };
  const lane = async (first: number): Promise<void> => {
    for (let kill = first; kill <= KILLS; kill += LANES) await killCycle(kill);
  };
  await Promise.all(Array.from({ length: LANES }, (_, i) => lane(i + 1)));
  const killsDone = Date.now();
  await cluster.startWorkers(loaded, stores, 'subagents');
  await Promise.all(runs.map((run) => run.handle.result().catch(() => undefined)));

  let notCompleted = 0;
  let tasksNotCompleted = 0;
  let attemptMismatches = 0;
  let usageMismatches = 0;
  let duplicateEnds = 0;
  let missingEnds = 0;
  let duplicateToolMessages = 0;
  let missingToolMessages = 0;
  let tasks = 0;
  for (const [i, run] of runs.entries()) {
    const state = await client.getState(run.workflowId);
    if (state.status !== 'completed') notCompleted += 1;
    const ends = await stores.events.listEvents({ runId: run.runId, eventTypes: ['subagent.end'], limit: 1000 });
    for (const t of state.tasks) {
      tasks += 1;
      if (t.status !== 'completed') tasksNotCompleted += 1;
      if (t.attempts !== 1 + (killedPerTask.get(`${run.workflowId}/${t.taskId}`) ?? 0)) attemptMismatches += 1;
      const mine = ends.filter((e) => e.taskId === t.taskId);
      if (mine.length === 0) missingEnds += 1;
      duplicateEnds += Math.max(0, mine.length - 1);
      const endUsage = (mine[0]?.payload as SubagentEndPayload | undefined)?.usage;
      if (JSON.stringify(t.usage) !== JSON.stringify(ONE_ATTEMPT) || JSON.stringify(endUsage) !== JSON.stringify(ONE_ATTEMPT)) usageMismatches += 1;
    }
    const transcript = (await stores.messages.listMessages(`kill-thread-${i}`)).map((r) => mapStoredMessageToChatMessage(r.message));
    const answered = transcript.filter((m) => ToolMessage.isInstance(m)).map((m) => m.tool_call_id);
    duplicateToolMessages += answered.length - new Set(answered).size;
    missingToolMessages += Math.max(0, TASKS_PER_RUN - new Set(answered).size);
  }
  const killCounts = [...killedPerTask.values()];
  const lost = {
    'runs not completed': notCompleted,
    'tasks not completed': tasksNotCompleted,
    'attempts not 1 + kills': attemptMismatches,
    'usage not one attempt': usageMismatches,
    'duplicate subagent.end': duplicateEnds,
    'missing subagent.end': missingEnds,
    'duplicate tool messages': duplicateToolMessages,
    'missing tool messages': missingToolMessages,
  };
  recordFaultFigures('r1-subagent-worker-kills', {
    title: 'R1 subagent worker kill -9',
    runs: RUNS,
    tasks,
    faults: { 'kill -9': KILLS },
    lost,
    measured: {
      'tasks killed once': killCounts.filter((n) => n === 1).length,
      'tasks killed twice': killCounts.filter((n) => n === 2).length,
      'kills after the first turn': afterFirstTurn,
      'seconds of kills': Math.round((killsDone - began) / 100) / 10,
    },
    seconds: Math.round((Date.now() - began) / 100) / 10,
  });

  expect(tasks).toBe(RUNS * TASKS_PER_RUN);
  expect(killCounts.reduce((a, b) => a + b, 0)).toBe(KILLS);
  expect(lost).toEqual(Object.fromEntries(Object.keys(lost).map((k) => [k, 0])));
}, 240_000);
