import { AIMessage, HumanMessage, mapStoredMessageToChatMessage, type BaseMessage } from '@langchain/core/messages';
import { GraphRecursionError } from '@langchain/langgraph';
import { createAgent, type AgentMiddleware } from 'langchain';
import { recursionLimitForTurns } from '../middleware/turn-recursion-limit';
import { buildSubagentMiddleware, consumeStopReason, stopReasonGuards } from '../middleware/agent';
import {
  boundText,
  TaskToolArgsSchema,
  type SubagentExecutionResult,
  type SubagentTaskInput,
  type TokenUsage,
} from '../contracts';
import { resolveSubagent, resolveSubagentModelName, type SubagentDefinition } from '../registry';
import { messageKeys } from '../store';
import { renderSubagentSystemPrompt } from '../prompts';
import { buildSkillsSection, getOrNewUserSkillStorage, intersectSkillAllowlists, loadSubagentSkills, SKILLS_VIRTUAL_ROOT } from '../skills';
import { createWorkspaceTools, sha256Hex, ThreadWorkspace } from '../tools';
import type { ActivityDeps } from './activity-deps';
import { rethrowIfCancelled, withHeartbeats } from './heartbeat';
import { StepEventBuffer } from './step-event-buffer';
import { buildSubagentStep, captureNewStepMessages, newStepCursor } from './step-capture';
import { finishedOutcome, turnCappedOutcome, type SubagentOutcome as Outcome } from './subagent-outcome';
import { usageOfMessages } from './usage-from-messages';

/** Builds the `runSubagent` activity. */
export function createRunSubagent(deps: ActivityDeps) {
  return async function runSubagent(input: SubagentTaskInput): Promise<SubagentExecutionResult> {
    // Definitions are read when the task executes; the run's policy and catalog were snapshotted at start.
    const def = resolveSubagent(input.subagentType, deps.config, await deps.stores.agents.listSubagents());
    const prompt = await loadTaskPrompt(deps, input);
    if (def === null || prompt === null) {
      const error =
        def === null
          ? `Subagent type '${input.subagentType}' is no longer defined (it was removed or disabled after the run started)`
          : `Task call ${input.taskId} not found in turn ${input.turn}`;
      return finish(deps, input, input.parentModel, { status: 'failed', stopReason: null, error, resultText: null }, null, 0);
    }
    const modelName = resolveSubagentModelName(def, input.parentModel, deps.config);
    const events = new StepEventBuffer(deps.stores.events, input);
    await events.start(modelName);

    let messages: readonly BaseMessage[] = [];
    let steps = 0;
    const progress = () => ({ steps, usage: usageOfMessages(messages) });
    try {
      const outcome = await withHeartbeats(async (signal) => {
        const summaryModel = deps.config.summarization.enabled
          ? deps.createModel(deps.config.summarization.model ?? modelName, { kind: 'summarizer' })
          : undefined;
        const middleware = buildSubagentMiddleware({ config: deps.config, agentName: def.name, now: deps.now, summaryModel });
        const guards = stopReasonGuards(middleware);
        // One key per execution: guards keep per-run state, and a retry is a new run.
        const runKey = `${input.runId}:${input.taskId}#${input.attempt}`;
        const agent = await buildAgent(deps, input, def, modelName, prompt, middleware);
        const cursor = newStepCursor();
        try {
          const stream = await agent.stream(
            { messages: [new HumanMessage(prompt)] },
            {
              streamMode: 'values',
              recursionLimit: recursionLimitForTurns(input.maxTurns, middleware),
              signal,
              context: { run_id: runKey, thread_id: input.threadId },
            },
          );
          for await (const chunk of stream) {
            messages = chunk.messages;
            for (const message of captureNewStepMessages(messages, cursor)) {
              steps += 1;
              await events.add(buildSubagentStep(message, input.taskId, steps), usageOfMessages(messages));
            }
          }
        } catch (err) {
          rethrowIfCancelled(signal);
          if (err instanceof GraphRecursionError) return turnCappedOutcome(messages, input.maxTurns, consumeStopReason(guards, runKey));
          throw err;
        }
        rethrowIfCancelled(signal);
        return finishedOutcome(messages, consumeStopReason(guards, runKey));
      }, progress);
      return await finish(deps, input, modelName, outcome, usageOfMessages(messages), steps);
    } catch (err) {
      if (isCancelledFailure(err)) throw err;
      const error = err instanceof Error ? err.message : String(err);
      return finish(deps, input, modelName, { status: 'failed', stopReason: null, error, resultText: null }, usageOfMessages(messages), steps);
    } finally {
      await events.flush();
    }
  };
}

function isCancelledFailure(err: unknown): boolean {
  return err instanceof Error && err.name === 'CancelledFailure';
}

async function loadTaskPrompt(deps: ActivityDeps, input: SubagentTaskInput): Promise<string | null> {
  const stored = await deps.stores.messages.getMessage(input.threadId, messageKeys.ai(input.runId, input.turn));
  const message = stored ? mapStoredMessageToChatMessage(stored) : null;
  const calls = message && AIMessage.isInstance(message) ? (message.tool_calls ?? []) : [];
  const call = calls.find((c) => c.id === input.taskId);
  if (call === undefined) return null;
  const args = TaskToolArgsSchema.safeParse(call.args);
  return args.success ? args.data.prompt : null;
}

/**
 * The subagent for one task: its model, its tools (allowlist, then denylist), and one system
 * message with its skills listed as metadata. Skill load errors propagate and fail the task.
 */
async function buildAgent(
  deps: ActivityDeps,
  input: SubagentTaskInput,
  def: SubagentDefinition,
  modelName: string,
  prompt: string,
  middleware: AgentMiddleware[],
) {
  const dataDir = deps.config.store.data_dir;
  const allowlist = intersectSkillAllowlists(input.availableSkills, def.skills);
  const skills = await loadSubagentSkills({ dataDir, userId: input.userId, allowlist });
  const skillStorage = getOrNewUserSkillStorage(dataDir, input.userId);
  const workspace = new ThreadWorkspace(dataDir, input.threadId);
  const tools = createWorkspaceTools({
    workspace,
    sandbox: deps.config.sandbox,
    readOnlyMounts: skills.length > 0 ? [{ prefix: SKILLS_VIRTUAL_ROOT, resolve: (path) => skillStorage.resolveVirtualPath(path) }] : [],
  }).filter((t) => (def.tools === null || def.tools.includes(t.name)) && !def.disallowedTools.includes(t.name));
  return createAgent({
    model: deps.createModel(modelName, { kind: 'subagent', taskPrompt: prompt }),
    tools,
    systemPrompt: renderSubagentSystemPrompt(def.systemPrompt, {
      receiptsEnabled: deps.config.verification.receipts_enabled,
      skillsSection: buildSkillsSection(skills),
    }),
    name: def.name,
    middleware,
  });
}

async function finish(
  deps: ActivityDeps,
  input: SubagentTaskInput,
  modelName: string,
  outcome: Outcome,
  usage: TokenUsage | null,
  steps: number,
): Promise<SubagentExecutionResult> {
  const text = outcome.resultText;
  const resultRef =
    text === null ? null : await deps.stores.results.putResult({ runId: input.runId, taskId: input.taskId, attempt: input.attempt, text });
  return {
    taskId: input.taskId,
    attempt: input.attempt,
    status: outcome.status,
    stopReason: outcome.stopReason,
    resultBrief: text === null ? null : boundText(text),
    resultSha256: text === null ? null : sha256Hex(text),
    resultRef,
    error: outcome.error === null ? null : boundText(outcome.error),
    modelName,
    usage,
    steps,
  };
}
