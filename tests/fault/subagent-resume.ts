import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { DeerFlowClient } from '../../src/client';
import type { LeadRunState, RunEvent, SubagentEndPayload, SubagentStepPayload } from '../../src/contracts';
import { subagentCheckpointThread } from '../../src/activities/subagent-checkpoint';
import { ModelRequestRecorder } from '../support/model-request-recorder';
import { waitFor } from '../support/use-temporal';
import type { FaultCluster } from './fault-cluster';

/** Turns of the scripted subagent: 9 tool rounds (each writes its own file), then the report. */
export const TURNS = 10;
/** Turns stored when the worker is killed: turn 7's model call is running then. */
export const STORED_TURNS = 6;
// Distinct usage per turn, so any turn counted twice or missed changes the sum.
const usageOf = (turn: number) => ({ input_tokens: 100 + turn, output_tokens: turn });
/** Every turn counted exactly once. */
export const ALL_TURNS_USAGE = {
  input_tokens: Array.from({ length: TURNS }, (_, i) => 100 + i + 1).reduce((a, b) => a + b, 0),
  output_tokens: Array.from({ length: TURNS }, (_, i) => i + 1).reduce((a, b) => a + b, 0),
};

function turns(slowTurn: number | null): Array<Record<string, unknown>> {
  const tools = Array.from({ length: TURNS - 1 }, (_, i) => ({
    tool_calls: [{ name: 'write_file', args: { path: `/mnt/user-data/outputs/part-${i + 1}.md`, content: `part ${i + 1}` } }],
    usage: usageOf(i + 1),
    delay_ms: i + 1 === slowTurn ? 60_000 : 100,
  }));
  return [...tools, { content: `Wrote ${TURNS - 1} parts [r1 write_file] [r9 write_file]`, usage: usageOf(TURNS) }];
}

function scenario(): Record<string, unknown> {
  return {
    lead: [{ tool_calls: [{ name: 'task', args: { description: 'Long', prompt: 'Long task through a crash', subagent_type: 'general-purpose' } }] }, { content: 'done' }],
    subagents: [
      // The first attempt's turn 7 is slow: the kill lands while it runs, after turn 6 and its tool result are stored.
      { match: 'Long', attempt: 1, turns: turns(STORED_TURNS + 1) },
      { match: 'Long', turns: turns(null) },
    ],
  };
}

const aiTurns = (messages: readonly BaseMessage[]) => messages.filter((m) => AIMessage.isInstance(m)).length;

/** What one kill-and-recover run observed. */
export interface ResumeRun {
  readonly state: LeadRunState;
  readonly events: RunEvent[];
  /** Model calls the replacement worker made. */
  readonly callsAfterKill: number;
}

/**
 * A lead run whose one subagent is killed (kill -9 of its worker process) once turn 6 and its
 * tool result are checkpointed; a replacement in-process worker then finishes the task.
 */
export async function killAndRecover(cluster: FaultCluster, resume: boolean): Promise<ResumeRun> {
  const { loaded, stores, configPath } = await cluster.configure(scenario(), {
    subagents: { resume },
    subagent_runtime: { heartbeat_timeout_seconds: 5 },
  });
  await cluster.startWorkers(loaded, stores, 'workflows');
  await cluster.startWorkerProcess(configPath);
  const client = new DeerFlowClient(cluster.env().client, loaded.config, { agents: stores.agents });
  const started = await client.startRun({ message: 'go', threadId: 'resume-thread', runId: 'run-1' });

  // Turn 6's tool result is stored once turn 7 is running: the process writes its checkpoints, or
  // (resume off) the run's state shows the steps.
  const thread = subagentCheckpointThread({ threadId: 'resume-thread', runId: 'run-1', taskId: '0.0' }, 1);
  await waitFor(async () => {
    if (!resume) return ((await client.getState(started.workflowId)).tasks[0]?.usage?.output_tokens ?? 0) >= (STORED_TURNS * (STORED_TURNS + 1)) / 2;
    const saved = await stores.checkpoints.getTuple({ configurable: { thread_id: thread, checkpoint_ns: '' } });
    const messages = (saved?.checkpoint.channel_values['messages'] ?? []) as BaseMessage[];
    return aiTurns(messages) === STORED_TURNS && ToolMessage.isInstance(messages.at(-1));
  }, 30_000);
  await cluster.killWorkerProcess();

  const recorder = new ModelRequestRecorder();
  await cluster.startWorkers(loaded, stores, 'subagents', { modelCallbacks: [recorder] });
  await started.handle.result();
  return {
    state: await client.getState(started.workflowId),
    events: await stores.events.listEvents({ runId: 'run-1', threadId: 'resume-thread', limit: 1000 }),
    callsAfterKill: recorder.requests.length,
  };
}

export const endPayloads = (events: readonly RunEvent[]) => events.filter((e) => e.event === 'subagent.end').map((e) => e.payload as SubagentEndPayload);
export const stepPayloads = (events: readonly RunEvent[]) => events.filter((e) => e.event === 'subagent.step').map((e) => e.payload as SubagentStepPayload);
