import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { Command, MemorySaver } from '@langchain/langgraph';
import { MockActivityEnvironment } from '@temporalio/testing';
import { createAgent, type AgentMiddleware } from 'langchain';
import { z } from 'zod';
import { ConversationCheckpoints } from '../../../src/activities/conversation-checkpoints';
import { resumeRun, subagentCheckpointThread, takeOverCheckpoint, type ResumePoint } from '../../../src/activities/subagent-checkpoint';
import { AppConfigSchema } from '../../../src/config';
import { addUsage, usageOfMessage, type TokenUsage } from '../../../src/contracts';
import {
  buildSubagentMiddleware,
  dateContextMiddleware,
  durableContextMiddleware,
  inputSanitizationMiddleware,
  llmErrorHandlingMiddleware,
  loopDetectionMiddleware,
  LOOP_DETECTION_MIDDLEWARE_NAME,
  resolveSubagentTokenBudget,
  skillToolPolicyMiddleware,
  subagentInputMessages,
  systemMessageCoalescingMiddleware,
  TOKEN_BUDGET_MIDDLEWARE_NAME,
  tokenBudgetMiddleware,
  toolErrorHandlingMiddleware,
  toolResultSanitizationMiddleware,
} from '../../../src/middleware/agent';
import { foldNodeHooks } from '../../../src/middleware/agent/fold-node-hooks';
import { SUBAGENT_HOOKS_MIDDLEWARE_NAME } from '../../../src/middleware/agent/subagent-chain';
import { recursionLimitForTurns } from '../../../src/middleware/turn-recursion-limit';
import { afterToolResults, streamUntil } from '../../support/interrupted-stream';
import { parseScenario, ScriptedChatModel } from '../../../src/models';

const config = AppConfigSchema.parse({});
/** With summarization the chain keeps a beforeModel hook (durable context records loaded skills). */
const summarizing = AppConfigSchema.parse({ summarization: { enabled: true } });
const now = () => new Date('2025-03-04T12:00:00Z');
const task = { threadId: 'thread-1', runId: 'run-1', taskId: '0.0' };
const context = { run_id: 'run-1:0.0#1', thread_id: 'thread-1' };
const MAX_TURNS = 5;
const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({ n: z.number() }) });

/**
 * A guard as earlier releases built it, with an afterModel hook (and so an `after_model` graph
 * node). The hook does nothing: the guard's check runs in its wrap hook, and the attempts on these
 * chains are only there to write checkpoints of the old layouts.
 */
function withAfterModelNode(guard: AgentMiddleware): AgentMiddleware {
  return { ...guard, afterModel: () => undefined } as AgentMiddleware;
}

/**
 * The subagent chain as the release before the node hooks were folded built it: every hook its
 * own graph node (`LoopDetectionMiddleware.before_agent`, `TokenBudgetMiddleware.after_model` ...).
 */
function previousReleaseChain(): AgentMiddleware[] {
  return [
    inputSanitizationMiddleware(),
    toolResultSanitizationMiddleware(),
    llmErrorHandlingMiddleware({}),
    toolErrorHandlingMiddleware(),
    withAfterModelNode(loopDetectionMiddleware(config.loop_detection)),
    withAfterModelNode(tokenBudgetMiddleware(resolveSubagentTokenBudget(config, 'general-purpose'))),
    durableContextMiddleware(),
    skillToolPolicyMiddleware({ skills: [] }),
    dateContextMiddleware({ now }),
    systemMessageCoalescingMiddleware(),
  ] as AgentMiddleware[];
}

/**
 * The subagent chain as the release that folded the node hooks but still added the date reminder
 * in a hook built it: a `SubagentHooksMiddleware.before_agent` node, then one node per hook kind.
 */
function foldedBeforeAgentChain(): AgentMiddleware[] {
  return foldNodeHooks(previousReleaseChain(), { name: SUBAGENT_HOOKS_MIDDLEWARE_NAME, dropRunHooks: [LOOP_DETECTION_MIDDLEWARE_NAME, TOKEN_BUDGET_MIDDLEWARE_NAME] });
}

/**
 * The checkpointer of the releases before checkpoints were held until a call: every step that
 * changed the conversation stored when it completed.
 */
class PreviousReleaseCheckpoints extends ConversationCheckpoints {
  override async put(...args: Parameters<ConversationCheckpoints['put']>): ReturnType<ConversationCheckpoints['put']> {
    const stored = await super.put(...args);
    await this.storeHeld();
    return stored;
  }
}

/** `toolRounds` distinct tool calls (10 + 2 tokens each), then a final answer. */
function agentOn(saver: ConversationCheckpoints, middleware: AgentMiddleware[], toolRounds: number) {
  const usage = { input_tokens: 10, output_tokens: 2 };
  const turns = [...Array.from({ length: toolRounds }, (_, n) => ({ tool_calls: [{ name: 'noop', args: { n } }], usage })), { content: 'all done', usage }];
  const scenario = parseScenario({ subagents: [{ match: '*', turns }] }, 'probe');
  return createAgent({ model: new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'probe' }), tools: [noop], middleware, checkpointer: saver });
}

const count = (messages: readonly BaseMessage[], is: (m: BaseMessage) => boolean) => messages.filter(is).length;
const usageOf = (messages: readonly BaseMessage[]) => messages.reduce<TokenUsage | null>((sum, m) => (AIMessage.isInstance(m) ? addUsage(sum, usageOfMessage(m)) : sum), null);

/** Attempt 1 on the previous release's chain, stopped (as a lost worker) once `stopWhen` holds for a chunk. */
async function previousReleaseAttempt(memory: MemorySaver, toolRounds: number, stopWhen: (messages: readonly BaseMessage[]) => boolean): Promise<void> {
  await firstAttempt(new PreviousReleaseCheckpoints(memory), previousReleaseChain(), toolRounds, stopWhen);
}

/**
 * Attempt 1 on `middleware`, stopped (as a lost worker) once `stopWhen` holds for a chunk. Its
 * input is the task alone, for chains that add the date reminder themselves, unless given.
 */
function firstAttempt(
  saver: ConversationCheckpoints,
  middleware: AgentMiddleware[],
  toolRounds: number,
  stopWhen: (messages: readonly BaseMessage[]) => boolean,
  input: BaseMessage[] = [new HumanMessage('go')],
): Promise<void> {
  return streamUntil(
    (signal) =>
      agentOn(saver, middleware, toolRounds).stream(
        { messages: input },
        { configurable: { thread_id: subagentCheckpointThread(task, 1) }, streamMode: 'values', recursionLimit: recursionLimitForTurns(MAX_TURNS, middleware), signal, context },
      ),
    stopWhen,
  );
}

/** Attempt 2 on this release's chain, taking over as `runSubagent` does. */
async function resumedAttempt(
  memory: MemorySaver,
  toolRounds: number,
  withSummarization = false,
): Promise<{ point: ResumePoint; input: Command | null; messages: readonly BaseMessage[]; capped: boolean }> {
  const point = await takeOverCheckpoint(memory, task, 2);
  if (point === null) throw new Error('nothing to take over');
  const saver = new ConversationCheckpoints(memory);
  const chain = withSummarization
    ? buildSubagentMiddleware({ config: summarizing, agentName: 'general-purpose', summaryModel: new ScriptedChatModel({ scenario: parseScenario({}, 'none'), role: { kind: 'summarizer' }, modelName: 'm' }) })
    : buildSubagentMiddleware({ config, agentName: 'general-purpose' });
  const middleware = [...chain, saver.storeBeforeCalls()];
  const run = resumeRun(point, middleware, recursionLimitForTurns(MAX_TURNS, middleware));
  let messages = point.messages;
  try {
    const stream = await agentOn(saver, middleware, toolRounds).stream(run.input, {
      configurable: { thread_id: subagentCheckpointThread(task, 2) },
      streamMode: 'values',
      recursionLimit: run.recursionLimit,
      context: { ...context, run_id: 'run-1:0.0#2' },
    });
    for await (const chunk of stream) messages = chunk.messages;
    return { point, input: run.input, messages, capped: false };
  } catch (err) {
    if (err instanceof Error && err.name === 'GraphRecursionError') return { point, input: run.input, messages, capped: true };
    throw err;
  }
}

/** The saver `runSubagent` uses; it retries store calls within the activity's context. */
const inActivity = <T>(fn: () => Promise<T>): Promise<T> => new MockActivityEnvironment().run(fn) as Promise<T>;

const afterResponses = (n: number) => (messages: readonly BaseMessage[]) => count(messages, (m) => AIMessage.isInstance(m)) === n;

/**
 * A takeover by `takeover`'s command that went on to the task's turn cap: the checkpoint's messages
 * first, one date reminder, every call answered, five model calls across both attempts (the step
 * the old graph was at counted in this graph's steps), each counted once in the usage.
 */
function expectTakenOverToTheCap(resumed: Awaited<ReturnType<typeof resumedAttempt>>, takeover: string): void {
  const { point, input, messages, capped } = resumed;
  expect(input).toBeInstanceOf(Command);
  expect((input as Command).goto).toEqual([takeover]);
  expect(messages.slice(0, point.messages.length).map((m) => m.id)).toEqual(point.messages.map((m) => m.id));
  expect(count(messages, (m) => SystemMessage.isInstance(m))).toBe(1);
  expect(count(messages, (m) => ToolMessage.isInstance(m))).toBe(count(messages, (m) => AIMessage.isInstance(m)));
  expect(capped).toBe(true);
  expect(count(messages, (m) => AIMessage.isInstance(m))).toBe(MAX_TURNS);
  expect(point.usage).toEqual(usageOf(point.messages));
  expect(usageOf(messages)).toMatchObject({ input_tokens: 10 * MAX_TURNS, output_tokens: 2 * MAX_TURNS });
}

describe('a checkpoint of the previous release (a graph node per hook) resumed on the folded chain', () => {
  test.each([
    // This chain has no beforeModel hooks either: the model is next.
    ['a round of tool results (next: the beforeModel hooks)', afterToolResults(1), 'DurableContextMiddleware.before_model', 'model_request'],
    ['a round of tool results (next: the beforeModel hooks)', afterToolResults(3), 'DurableContextMiddleware.before_model', 'model_request'],
    // This chain has no afterModel hooks: the response's tool calls go to the tools.
    ['a model response (next: the afterModel hooks)', afterResponses(2), 'TokenBudgetMiddleware.after_model', 'tools'],
  ])('after %s, keeps the conversation, its usage and the turn cap', async (_label, stopWhen, oldNext, takeover) => {
    const memory = new MemorySaver();
    await inActivity(() => previousReleaseAttempt(memory, 20, stopWhen));
    const resumed = await inActivity(() => resumedAttempt(memory, 20));

    expect(resumed.point.next).toEqual([oldNext]);
    expectTakenOverToTheCap(resumed, takeover);
  });

  test('a task that answers within the cap completes once, without another call for the answered turns', async () => {
    const memory = new MemorySaver();
    await inActivity(() => previousReleaseAttempt(memory, 3, afterToolResults(2)));
    const { point, messages, capped } = await inActivity(() => resumedAttempt(memory, 3));
    expect(point.steps).toBe(4);
    expect(capped).toBe(false);
    expect(count(messages, (m) => AIMessage.isInstance(m))).toBe(4);
    expect(messages.at(-1)?.content).toBe('all done');
  });

  test('a checkpoint of the current layout resumes where it stopped, with no takeover command', async () => {
    const memory = new MemorySaver();
    const saver = new ConversationCheckpoints(memory);
    const middleware = [...buildSubagentMiddleware({ config, agentName: 'general-purpose' }), saver.storeBeforeCalls()];
    // Stopped once the third response is in: no graph step lies between it and its tool call, which
    // stored it when it started, before the stop.
    await inActivity(() => firstAttempt(saver, middleware, 20, afterResponses(3), subagentInputMessages('go', { now })));
    const { point, input, messages, capped } = await inActivity(() => resumedAttempt(memory, 20));
    expect(count(point.messages, (m) => ToolMessage.isInstance(m))).toBe(2);
    expect(count(point.messages, (m) => AIMessage.isInstance(m))).toBe(3);
    expect(point.next).toEqual(['tools']);
    expect(input).toBeNull();
    expect(count(messages, (m) => SystemMessage.isInstance(m))).toBe(1);
    expect(capped).toBe(true);
    expect(count(messages, (m) => AIMessage.isInstance(m))).toBe(MAX_TURNS);
  });
});

describe('a checkpoint of the previous release resumed on a chain with a beforeModel hook (summarization on)', () => {
  test.each([
    ['a round of tool results (next: the beforeModel hooks)', afterToolResults(2), 'SubagentHooksMiddleware.before_model'],
    ['a model response (next: the afterModel hooks)', afterResponses(2), 'tools'],
  ])('after %s, keeps the conversation, its usage and the turn cap', async (_label, stopWhen, takeover) => {
    const memory = new MemorySaver();
    await inActivity(() => previousReleaseAttempt(memory, 20, stopWhen));
    expectTakenOverToTheCap(await inActivity(() => resumedAttempt(memory, 20, true)), takeover);
  });
});

describe('a checkpoint of the folded layout with a beforeAgent node resumed on the chain without one', () => {
  test.each([
    ['a round of tool results (next: the beforeModel hooks)', afterToolResults(1), 'SubagentHooksMiddleware.before_model', 'model_request'],
    ['a round of tool results (next: the beforeModel hooks)', afterToolResults(3), 'SubagentHooksMiddleware.before_model', 'model_request'],
    // This chain has no afterModel hooks: the response's tool calls go to the tools.
    ['a model response (next: the afterModel hooks)', afterResponses(2), 'SubagentHooksMiddleware.after_model', 'tools'],
  ])('after %s, keeps the conversation, its usage and the turn cap', async (_label, stopWhen, next, takeover) => {
    const memory = new MemorySaver();
    await inActivity(() => firstAttempt(new PreviousReleaseCheckpoints(memory), foldedBeforeAgentChain(), 20, stopWhen));
    const resumed = await inActivity(() => resumedAttempt(memory, 20));

    expect(resumed.point.nodes).toContain('SubagentHooksMiddleware.before_agent');
    expect(resumed.point.next).toEqual([next]);
    expectTakenOverToTheCap(resumed, takeover);
  });
});

describe('a checkpoint about to run afterModel hooks after the final answer, resumed on the chain without them', () => {
  test.each([
    ['the previous release (a graph node per hook)', previousReleaseChain, 'TokenBudgetMiddleware.after_model'],
    ['the folded layout with a beforeAgent node', foldedBeforeAgentChain, 'SubagentHooksMiddleware.after_model'],
  ])('of %s ends with that answer, without a model call', async (_label, chain, next) => {
    const memory = new MemorySaver();
    await inActivity(() => firstAttempt(new PreviousReleaseCheckpoints(memory), chain(), 1, afterResponses(2)));
    const { point, input, messages, capped } = await inActivity(() => resumedAttempt(memory, 1));

    expect(point.next).toEqual([next]);
    expect(point.messages.at(-1)?.content).toBe('all done');
    expect(input).toBeNull();
    expect(capped).toBe(false);
    // Nothing was added: the conversation is the checkpoint's, ending with its answer.
    expect(messages.map((m) => m.id)).toEqual(point.messages.map((m) => m.id));
    expect(messages.at(-1)?.content).toBe('all done');
    expect(usageOf(messages)).toMatchObject({ input_tokens: 20, output_tokens: 4 });
  });
});
