import { AIMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { Command } from '@langchain/langgraph';
import type { BaseCheckpointSaver, CheckpointTuple, PendingWrite } from '@langchain/langgraph-checkpoint';
import { log } from '@temporalio/activity';
import type { AgentMiddleware } from 'langchain';
import { addUsage, usageOfMessage, TokenUsageSchema, type SubagentExecutionScope, type TokenUsage } from '../contracts';
import { graphShape, stepBeforePhase, turnsDoneAtStep, type GraphPhase, type GraphShape } from '../middleware/turn-recursion-limit';

/**
 * The checkpoint thread of one attempt of a task (the run id is unique in its thread, the task id
 * in its run; a batch's items are keyed by batch id). Attempts never share one: an attempt whose
 * lease lapsed may still be running beside its successor, and its writes and its final delete
 * must not touch the state the successor resumed from.
 */
export function subagentCheckpointThread(input: SubagentExecutionScope, attempt: number): string {
  return `${legacyCheckpointThread(input)}#${attempt}`;
}

/** The one thread all attempts of a task shared before threads were per attempt; still read once by a resume after a deploy. */
function legacyCheckpointThread(input: SubagentExecutionScope): string {
  return `subagent:${input.threadId}:${input.runId}:${input.taskId}`;
}

/** The threads an attempt may take over from, newest first: an attempt that never checkpointed leaves the one before it. */
function earlierCheckpointThreads(input: SubagentExecutionScope, attempt: number): string[] {
  return [...Array.from({ length: attempt - 1 }, (_, i) => subagentCheckpointThread(input, attempt - 1 - i)), legacyCheckpointThread(input)];
}

/** Where an execution takes over an earlier attempt: its conversation at the last stored graph step. */
export interface ResumePoint {
  readonly messages: readonly BaseMessage[];
  /** LangGraph's step number of that checkpoint (the recursion limit counts on from it). */
  readonly graphStep: number;
  /** Assistant turns and tool results already in the conversation (they are not run again). */
  readonly steps: number;
  /** Usage of the task's model responses so far, compacted ones and summaries included (each counted once). */
  readonly usage: TokenUsage | null;
  /** Whether older messages were compacted into a summary: the conversation is then only the newest part. */
  readonly compacted: boolean;
  /** The graph nodes that had run or were about to run: their names carry the hook layout of the graph that wrote it. */
  readonly nodes: readonly string[];
  /** The nodes it was about to run. */
  readonly next: readonly string[];
}

/**
 * Where attempt `attempt` of a task takes over, or null when no earlier attempt completed a graph
 * step. The latest checkpoint of the newest earlier attempt that has one is copied into this
 * attempt's own thread (with its pending writes), which the execution then continues. A checkpoint
 * is stored when a graph step that changed the conversation completes, so a model call or a tool
 * round that was running when the worker went away is not in it and runs again.
 */
export async function takeOverCheckpoint(saver: BaseCheckpointSaver, input: SubagentExecutionScope, attempt: number): Promise<ResumePoint | null> {
  for (const thread of earlierCheckpointThreads(input, attempt)) {
    const latest = await latestCheckpoint(saver, thread);
    if (latest === null) continue;
    await copyCheckpoint(saver, latest.saved, subagentCheckpointThread(input, attempt));
    return latest.point;
  }
  return null;
}

async function latestCheckpoint(saver: BaseCheckpointSaver, thread: string): Promise<{ saved: CheckpointTuple; point: ResumePoint } | null> {
  const saved = await saver.getTuple(threadConfig(thread));
  const messages = saved?.checkpoint.channel_values['messages'];
  if (saved === undefined || !Array.isArray(messages) || messages.length === 0) return null;
  const conversation = messages as BaseMessage[];
  // Responses compacted away (and the summaries) are counted in state, the kept ones by their messages.
  const compactedUsage = TokenUsageSchema.nullable().catch(null).parse(saved.checkpoint.channel_values['compacted_usage'] ?? null);
  const usage = conversation.reduce<TokenUsage | null>((sum, m) => (AIMessage.isInstance(m) ? addUsage(sum, usageOfMessage(m)) : sum), compactedUsage);
  const next = nextNodes(saved.checkpoint.channel_values);
  const point: ResumePoint = {
    messages: conversation,
    graphStep: saved.metadata?.step ?? -1,
    steps: conversation.filter((m) => AIMessage.isInstance(m) || ToolMessage.isInstance(m)).length,
    usage,
    compacted: typeof saved.checkpoint.channel_values['summary_text'] === 'string',
    nodes: [...new Set([...Object.keys(saved.checkpoint.versions_seen), ...next])].filter((node) => !node.startsWith('__')),
    next,
  };
  return { saved, point };
}

/** The nodes a checkpoint runs next: those its edges triggered (`branch:to:<node>`) and those sent work (a tool call to `tools`). */
function nextNodes(values: Record<string, unknown>): string[] {
  const branches = Object.keys(values).flatMap((channel) => (channel.startsWith('branch:to:') ? [channel.slice('branch:to:'.length)] : []));
  const sends = values['__pregel_tasks'];
  const sent = Array.isArray(sends) ? sends.flatMap((send: unknown) => (typeof send === 'object' && send !== null && 'node' in send && typeof send.node === 'string' ? [send.node] : [])) : [];
  return [...new Set([...branches, ...sent])];
}

/**
 * Writes `saved` as the latest checkpoint of `thread`: every channel's value (savers that store
 * channels apart write those named in the versions), the step in its metadata, and the writes of
 * the step's tasks that had finished, so they are not run again.
 */
async function copyCheckpoint(saver: BaseCheckpointSaver, saved: CheckpointTuple, thread: string): Promise<void> {
  const stored = await saver.put(threadConfig(thread), saved.checkpoint, saved.metadata ?? { source: 'update', step: -1, parents: {} }, saved.checkpoint.channel_versions);
  const byTask = new Map<string, PendingWrite[]>();
  for (const [taskId, channel, value] of saved.pendingWrites ?? []) byTask.set(taskId, [...(byTask.get(taskId) ?? []), [channel, value]]);
  for (const [taskId, writes] of byTask) await saver.putWrites(stored, writes, taskId);
}

function threadConfig(thread: string) {
  return { configurable: { thread_id: thread, checkpoint_ns: '' } };
}

/**
 * The recursion limit that keeps a resumed execution inside the task's original `fullLimit`:
 * LangGraph counts a resumed invocation's steps from the checkpoint's step, so the steps already
 * taken are subtracted (a fresh invocation starts at step -1).
 */
export function resumedRecursionLimit(fullLimit: number, point: ResumePoint): number {
  return Math.max(1, fullLimit - (point.graphStep + 2));
}

const HOOK_PHASES = { beforeAgent: 'before_agent', beforeModel: 'before_model', afterModel: 'after_model', afterAgent: 'after_agent' } as const;

/** The graph nodes `createAgent` makes for `middleware`, per phase in the order they run (`<name>.<hook>`, FACTS §2). */
function agentNodes(middleware: readonly AgentMiddleware[]): Record<GraphPhase, string[]> {
  const hookNodes = (hook: keyof typeof HOOK_PHASES) => middleware.filter((m) => m[hook] !== undefined).map((m) => `${m.name}.${HOOK_PHASES[hook]}`);
  return {
    before_agent: hookNodes('beforeAgent'),
    before_model: hookNodes('beforeModel'),
    model_request: ['model_request'],
    after_model: hookNodes('afterModel').reverse(),
    tools: ['tools'],
    after_agent: hookNodes('afterAgent').reverse(),
  };
}

function phaseOf(node: string): GraphPhase | null {
  if (node === 'model_request' || node === 'tools') return node;
  const suffix = node.slice(node.lastIndexOf('.') + 1);
  return Object.values(HOOK_PHASES).find((phase) => phase === suffix) ?? null;
}

/** The shape of the graph that had the hook `nodes`: exact once a model call is behind it, enough before that. */
function shapeOf(nodes: readonly string[]): GraphShape {
  const count = (phase: GraphPhase) => nodes.filter((node) => phaseOf(node) === phase).length;
  return { beforeAgent: count('before_agent'), beforeModel: count('before_model'), afterModel: count('after_model'), afterAgent: count('after_agent') };
}

/** How an execution continues from a {@link ResumePoint}. */
export interface ResumeRun {
  /** The graph input: `null` continues where the checkpoint stopped, a `Command` at the node that stands in for the one it had next. */
  readonly input: Command | null;
  readonly recursionLimit: number;
}

/**
 * How an agent with `middleware` continues from `point` within the task's `fullLimit`. A
 * checkpoint written by a graph with other hook nodes (a worker of an earlier release, whose chain
 * was laid out differently) names nodes this graph lacks, for which LangGraph would silently run
 * nothing: the run then goes on at this graph's first node of the same kind (hooks are functions of
 * the state, so running every hook of that kind again decides the same), and the recursion limit
 * counts the model calls made so far in this graph's steps. A checkpoint about to run afterModel
 * hooks, taken over by a graph that has none, goes where this graph's edges after the model lead:
 * the tools when the last response has unanswered tool calls, else the afterAgent hooks or the end.
 * The checks that graph ran after the model call (the guards') are then skipped for that response.
 */
export function resumeRun(point: ResumePoint, middleware: readonly AgentMiddleware[], fullLimit: number): ResumeRun {
  const nodes = agentNodes(middleware);
  const known = new Set(Object.values(nodes).flat());
  if (point.nodes.every((node) => known.has(node))) return { input: null, recursionLimit: resumedRecursionLimit(fullLimit, point) };
  const phase = point.next.map(phaseOf).find((p) => p !== null) ?? 'after_agent';
  const turns = turnsDoneAtStep(point.graphStep, shapeOf(point.nodes));
  const step = stepBeforePhase(phase, turns, graphShape(middleware));
  const input = takeoverInput(phase, nodes, point.messages);
  // A Command takes a graph step of its own before the node it goes to. (A chain with beforeModel
  // hooks hid this: its cap admits the next turn's hooks, so one step short still ended at the model.)
  return { input, recursionLimit: Math.max(1, fullLimit - (step + 2) + (input === null ? 0 : 1)) };
}

function takeoverInput(phase: GraphPhase, nodes: Record<GraphPhase, string[]>, messages: readonly BaseMessage[]): Command | null {
  // The model and the tools keep their names: the checkpoint still triggers them.
  if (phase === 'model_request' || phase === 'tools') return null;
  const candidates = {
    before_agent: [...nodes.before_agent, ...nodes.before_model, 'model_request'],
    before_model: [...nodes.before_model, 'model_request'],
    after_model: nodes.after_model,
    after_agent: nodes.after_agent,
  }[phase];
  const node = candidates[0];
  if (node !== undefined) return new Command({ goto: node });
  // The tools node, sent no call of its own, runs the unanswered calls of the last response.
  if (phase === 'after_model' && hasUnansweredToolCalls(messages)) return new Command({ goto: 'tools' });
  const end = phase === 'after_model' ? nodes.after_agent[0] : undefined;
  if (end !== undefined) return new Command({ goto: end });
  // Past the last hook with nothing left to run: the conversation is complete.
  return null;
}

/** Whether the conversation's last AI message has a tool call no ToolMessage answers. */
function hasUnansweredToolCalls(messages: readonly BaseMessage[]): boolean {
  const last = [...messages].reverse().find((m): m is AIMessage => AIMessage.isInstance(m));
  if (last === undefined) return false;
  const answered = new Set(messages.flatMap((m) => (ToolMessage.isInstance(m) ? [m.tool_call_id] : [])));
  return (last.tool_calls ?? []).some((call) => call.id === undefined || !answered.has(call.id));
}

/**
 * Deletes the checkpoints of a task's attempts up to `attempt` once nothing can resume it. An
 * earlier attempt still running (its lease lapsed) deletes its own thread when it ends. Give it the
 * store's saver, not one that retries: a store that is down must not hold a finished execution (a
 * failure only leaves rows behind).
 */
export async function dropCheckpoints(saver: BaseCheckpointSaver, input: SubagentExecutionScope, attempt: number): Promise<void> {
  for (const thread of [subagentCheckpointThread(input, attempt), ...(attempt > 1 ? earlierCheckpointThreads(input, attempt) : [])]) {
    try {
      await saver.deleteThread(thread);
    } catch (err) {
      log.warn('Deleting subagent checkpoints failed; they stay in the store', { thread, error: String(err) });
    }
  }
}
