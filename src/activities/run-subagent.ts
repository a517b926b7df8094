import type { BaseMessage } from '@langchain/core/messages';
import { GraphRecursionError } from '@langchain/langgraph';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { recursionLimitForTurns } from '../middleware/turn-recursion-limit';
import { buildSubagentMiddleware, consumeStopReason, resetGuards, stopReasonGuards, subagentInputMessages } from '../middleware/agent';
import {
  boundText,
  executionScopeOf,
  isCancelledFailure,
  TASK_DEADLINE_EXCEEDED_TYPE,
  type SubagentEvidence,
  type SubagentExecutionResult,
  type SubagentProgress,
  type SubagentTaskInput,
  type SubagentTaskWire,
  type TokenUsage,
} from '../contracts';
import { resolveSubagent, resolveSubagentModelName, subagentDeferredTools, subagentHasTool, type SubagentDefinition } from '../registry';
import { isAgentDefinitionError } from '../store';
import { buildDeferredToolsSection, renderSubagentSystemPrompt } from '../prompts';
import { ReceiptHarvest, withAcceptanceCriteria } from '../receipts';
import { withToolReceipts } from '../receipts/agent';
import { buildSkillsSection, getOrNewUserSkillStorage, intersectSkillAllowlists, loadSubagentSkills, SKILLS_VIRTUAL_ROOT, type SkillMetadata } from '../skills';
import { createAgentTools, ThreadWorkspace } from '../tools';
import type { McpToolEntry } from '../mcp';
import type { ModelRole } from '../models';
import type { ActivityDeps } from './activity-deps';
import { AgentPool, identityOf } from './agent-pool';
import { BoundCheckpoints } from './bound-checkpoints';
import { ExecutionSlot, executionSlotMiddleware } from './execution-slot';
import { isWorkerShutdownFailure, rethrowIfCancelled, withHeartbeats } from './heartbeat';
import { StepEventBuffer } from './step-event-buffer';
import { parseActivityInput } from './parse-activity-input';
import { untilStored } from './until-stored';
import { armTaskDeadline, TaskDeadlineExceeded } from './task-deadline';
import { taskTimeoutQuery } from '../workflows/lead-run-messages';
import { buildSubagentStep, captureNewStepMessages, newStepCursor, takenOverSteps } from './step-capture';
import { finishedOutcome, turnCappedOutcome, type SubagentOutcome as Outcome } from './subagent-outcome';
import { TaskProgressReporter } from './task-progress-reporter';
import { UsageCollector } from './usage-collector';
import { agentSpansMiddleware, deerflowIdsOf } from '../telemetry';
import { ConversationCheckpoints } from './conversation-checkpoints';
import { StoreRetryingCheckpoints } from './store-retrying-checkpoints';
import { sha256Hex } from './sha256-hex';
import { LeadTurnCalls } from './lead-turn-calls';
import { taskPromptOf, type TaskPrompt } from './task-prompt';
import { dropCheckpoints, resumeRun, subagentCheckpointThread, takeOverCheckpoint, type ResumePoint } from './subagent-checkpoint';

/** Builds the `runSubagent` activity. */
export function createRunSubagent(deps: ActivityDeps) {
  const execute = createSubagentExecutor(deps);
  return async function runSubagent(wire: SubagentTaskWire): Promise<SubagentExecutionResult> {
    // Tagged, whichever shape the workflow sent (see `SubagentTaskInputSchema`).
    return execute(parseActivityInput('runSubagent', wire));
  };
}

/**
 * One subagent execution of a validated input, as `runSubagent` and `runBatchItem` run it.
 * `deadlineSeconds`: the execution stops itself (failing `TaskDeadlineExceeded`) that long after it
 * started, where Temporal's start-to-close also covers time before it (a batch item's lease wait).
 */
export type SubagentExecutor = (input: SubagentTaskInput, options?: { readonly deadlineSeconds?: number }) => Promise<SubagentExecutionResult>;

/** Builds the {@link SubagentExecutor} of one worker (it keeps the lead responses it parsed). */
export function createSubagentExecutor(deps: ActivityDeps): SubagentExecutor {
  const leadTurns = new LeadTurnCalls(deps.stores.messages);
  // As many agents kept as executions can run at once on one of this worker's queues.
  const agents = new AgentPool<PooledSubagentAgent>(deps.config.subagent_runtime.max_running);
  return async function executeSubagent(input: SubagentTaskInput, options: { readonly deadlineSeconds?: number } = {}): Promise<SubagentExecutionResult> {
    const scope = executionScopeOf(input);
    // Definitions are read when the task executes; the run's policy and catalog were snapshotted at
    // start. A store that is down then delays the execution (its lease kept), it does not fail it.
    const [managed, task] = await withHeartbeats(() =>
      untilStored(
        () => Promise.all([deps.stores.agents.listSubagents(), loadTaskPrompt(deps, leadTurns, input)]),
        (err) => !isAgentDefinitionError(err),
      ),
    );
    const def = resolveSubagent(input.subagentType, deps.config, managed);
    if (def === null || task === null) {
      const error =
        def === null
          ? `Subagent type '${input.subagentType}' is no longer defined (it was removed or disabled after the run started)`
          : input.kind === 'batchItem'
            ? `Batch item ${input.key} not found in batch ${input.batchId}`
            : `Task call ${input.taskId} not found in turn ${input.turn}`;
      return finish(deps, input, input.parentModel, { status: 'failed', stopReason: null, error, resultText: null }, null, 0);
    }
    const { prompt } = task;
    // The criteria ride in the task message (the untrusted channel); the system prompt only points at them.
    const taskMessage = withAcceptanceCriteria(prompt, task.acceptanceCriteria);
    const receiptsEnabled = deps.config.verification.receipts_enabled;
    // Receipts off: no ledger, no receipt lines for the model, no verdicts (evidence stays null).
    const receipts = receiptsEnabled ? new ReceiptHarvest(sha256Hex) : null;
    const modelName = resolveSubagentModelName(def, input.parentModel, deps.config);
    const events = new StepEventBuffer(deps.stores.events, input);
    await withHeartbeats(() => untilStored(() => events.start(modelName)));

    // With resume on, the graph checkpoints every step that changed the conversation; an attempt
    // after a lost or stopped worker continues from the last one instead of starting over, in a
    // thread of its own. The first attempt starts clean (a reset workflow runs attempt 1 again).
    const checkpoints = deps.config.subagents.resume ? new ConversationCheckpoints(deps.stores.checkpoints) : null;
    const checkpointThread = subagentCheckpointThread(scope, input.attempt);
    // A first attempt that stored none has none to drop: its thread was emptied before it ran.
    const dropStoredCheckpoints = async () => {
      if (checkpoints !== null && (input.attempt > 1 || checkpoints.storedAny)) await dropCheckpoints(deps.stores.checkpoints, scope, input.attempt);
    };
    const resumed = await withHeartbeats(async (): Promise<ResumePoint | null> => {
      if (checkpoints === null) return null;
      if (input.attempt === 1) {
        await checkpoints.deleteThread(checkpointThread);
        return null;
      }
      // Copied straight to the store: the execution's saver holds checkpoints until a call starts.
      const point = await takeOverCheckpoint(new StoreRetryingCheckpoints(deps.stores.checkpoints), scope, input.attempt);
      // Steps the earlier attempts ran but never stored (a killed attempt's unflushed rows) are
      // written now; after a compaction the indexes of the kept tail are unknown, so nothing is.
      if (point !== null && !point.compacted) await events.restore(takenOverSteps(point.messages, scope.taskId));
      return point;
    });
    let messages: readonly BaseMessage[] = resumed?.messages ?? [];
    let steps = resumed?.steps ?? 0;
    const progress = (): SubagentProgress => ({
      steps,
      usage: usage.total,
      modelName,
      evidence: receipts?.withoutReport() ?? null,
      ...(resumed === null ? {} : { resumedFrom: resumed.steps }),
    });
    // Every model response of this execution, the summarizer's included, published as it arrives;
    // a resumed execution starts from what the responses it took over cost.
    const reporter = new TaskProgressReporter(input, {
      store: deps.stores.progress,
      signalIntervalMs: deps.config.subagent_runtime.progress_signal_seconds * 1000,
    });
    const usage = new UsageCollector(() => reporter.publish(progress()), resumed?.usage ?? null);
    // An extendable task enforces its own deadline, asking the run for extensions when it is reached;
    // a fixed one never moves.
    const fixedDeadline = options.deadlineSeconds;
    const deadline =
      input.kind === 'task' && input.deadlineSeconds !== undefined
        ? armTaskDeadline(input.deadlineSeconds, () => askTaskTimeout(scope.taskId))
        : fixedDeadline !== undefined
          ? armTaskDeadline(fixedDeadline, async () => fixedDeadline)
          : null;
    // The pooled agent of this execution; back to the pool only once its graph ended cleanly (a
    // failed or cancelled one may still have a call of this execution running on it).
    let pooled: PooledSubagentAgent | null = null;
    let pooledKey = '';
    const release = (outcome: Outcome): Outcome => {
      if (pooled !== null) {
        resetGuards(pooled.middleware);
        pooled.slot.unbind();
        agents.give(pooledKey, pooled);
        pooled = null;
      }
      return outcome;
    };
    try {
      const outcome = await withHeartbeats(async (cancelled) => {
        const signal = deadline === null ? cancelled : AbortSignal.any([cancelled, deadline.signal]);
        const summaryModel = deps.config.summarization.enabled
          ? deps.createModel(deps.config.summarization.model ?? modelName, { kind: 'summarizer' }, [usage])
          : undefined;
        // Loaded once: the prompt lists them and the skill tool policy enforces their allowed_tools.
        const skills = await loadSubagentSkills({ dataDir: deps.config.store.data_dir, userId: input.userId, allowlist: intersectSkillAllowlists(input.availableSkills, def.skills) });
        // One look at the connected MCP servers for the whole build (a reconnect replaces their tools).
        const mcp = deps.mcp?.entries() ?? [];
        // With tool_search on, its MCP tools wait behind it; promotions last for this task only.
        const deferred = subagentDeferredTools(deps.config, def, mcp) ?? [];
        const shape: SubagentShape = {
          def,
          modelName,
          role: { kind: 'subagent', taskPrompt: prompt, attempt: input.attempt },
          tools: subagentTools(deps, input, def, skills, mcp),
          systemPrompt: renderSubagentSystemPrompt(def.systemPrompt, {
            receiptsEnabled,
            hasAcceptanceCriteria: taskMessage.hasCriteria,
            skillsSection: buildSkillsSection(skills),
            deferredToolsSection: buildDeferredToolsSection(deferred),
          }),
          skills,
          deferred,
          checkpoints: checkpoints !== null,
        };
        pooledKey = shapeKey(shape, mcp);
        pooled = agents.take(pooledKey, () => buildPooledAgent(deps, shape));
        pooled.slot.bind({
          model: deps.createModel(modelName, shape.role, [usage]),
          tools: executionTools(shape.tools, pooled.toolNames),
          summaryModel,
          wrappers: [
            // A tool round's receipts are new evidence for the run before the next model call.
            reporter.flushBeforeCalls((conversation) => {
              // Harvested already when the stream has caught up with the graph.
              if (receipts === null || (conversation.length === messages.length && conversation.at(-1)?.id === messages.at(-1)?.id)) return;
              const known = receipts.receipts.length;
              receipts.observe(conversation);
              if (receipts.receipts.length !== known) reporter.publish(progress());
            }),
            ...(checkpoints === null ? [] : [checkpoints.storeBeforeCalls()]),
            // Spans innermost: one per provider call and per tool execution, with the task's ids.
            agentSpansMiddleware({ ids: deerflowIdsOf(input), model: modelName, agent: def.name }),
          ],
          checkpointer: checkpoints,
        });
        const { agent, middleware, guards } = pooled;
        // One key per execution: guards keep per-run state, and a retry is a new run.
        const runKey = `${scope.runId}:${scope.taskId}#${input.attempt}`;
        const cursor = newStepCursor();
        // The steps taken over are neither run nor reported again; the first new one says where it resumed.
        captureNewStepMessages(messages, cursor);
        receipts?.observe(messages);
        let resumedFrom = resumed?.steps;
        const fullLimit = recursionLimitForTurns(input.maxTurns, middleware);
        try {
          const run = resumed === null ? { input: { messages: subagentInputMessages(taskMessage.text, { now: deps.now }) }, recursionLimit: fullLimit } : resumeRun(resumed, middleware, fullLimit);
          const stream = await agent.stream(run.input, {
            streamMode: 'values',
            recursionLimit: run.recursionLimit,
            signal,
            context: { run_id: runKey, thread_id: input.threadId },
            ...(checkpoints === null ? {} : { configurable: { thread_id: checkpointThread } }),
          });
          for await (const chunk of stream) {
            messages = chunk.messages;
            // Harvested before anything can stop the loop: a failed run keeps its latest evidence.
            receipts?.observe(chunk.messages);
            const fresh = captureNewStepMessages(messages, cursor);
            const total = steps + fresh.length;
            for (const message of fresh) {
              steps += 1;
              const step = { ...buildSubagentStep(message, scope.taskId, steps), total_messages: total };
              await events.add(resumedFrom === undefined ? step : { ...step, resumed_from: resumedFrom }, usage.total);
              resumedFrom = undefined;
            }
            // A tool result may bring new receipts: the run keeps the latest evidence too.
            if (fresh.length > 0) reporter.publish(progress());
          }
        } catch (err) {
          rethrowIfCancelled(signal);
          if (err instanceof GraphRecursionError) return release(turnCappedOutcome(messages, input.maxTurns, consumeStopReason(guards, runKey)));
          throw err;
        }
        rethrowIfCancelled(signal);
        return release(finishedOutcome(messages, consumeStopReason(guards, runKey)));
      }, progress);
      // The last steps and the result asked for together: a SQLite store commits them at once.
      const stepsStored = events.flush();
      // Heartbeats go on while the result is stored: a store outage must not cost the lease.
      const result = await withHeartbeats(() => finish(deps, input, modelName, outcome, usage.total, steps, evidenceOf(receipts, outcome), resumed), progress);
      await stepsStored;
      await dropStoredCheckpoints();
      return result;
    } catch (err) {
      if (isCancelledFailure(err)) {
        await dropStoredCheckpoints();
        throw err;
      }
      // Runs again on another worker (the workflow decides), never a failed result of this task.
      if (isWorkerShutdownFailure(err)) throw err;
      // The workflow decides the task timed out; steps written so far stay. The details carry what
      // the execution spent, since it cannot return a result.
      if (err instanceof TaskDeadlineExceeded) throw ApplicationFailure.nonRetryable(err.message, TASK_DEADLINE_EXCEEDED_TYPE, progress());
      const error = err instanceof Error ? err.message : String(err);
      const failed: Outcome = { status: 'failed', stopReason: null, error, resultText: null };
      const result = await finish(deps, input, modelName, failed, usage.total, steps, evidenceOf(receipts, failed), resumed);
      await dropStoredCheckpoints();
      return result;
    } finally {
      deadline?.stop();
      reporter.stop();
      await events.flush();
    }
  };
}

/** The task's timeout as its run sees it now (query `taskTimeout`); 0 = unknown there. */
async function askTaskTimeout(taskId: string): Promise<number> {
  const ctx = Context.current();
  const workflowId = ctx.info.workflowExecution?.workflowId;
  if (workflowId === undefined) throw new Error('not run by a workflow');
  const seconds = await ctx.client.workflow.getHandle(workflowId).query(taskTimeoutQuery, taskId);
  if (seconds <= 0) throw new Error(`the run does not know task ${taskId}`);
  return seconds;
}

/**
 * The receipt check for the result (SPEC Appendix C.4): a completed report against the snapshot it
 * could cite, else the latest receipts without verdicts. Null with receipts off.
 */
function evidenceOf(receipts: ReceiptHarvest | null, outcome: Outcome): SubagentEvidence | null {
  if (receipts === null) return null;
  return outcome.status === 'completed' && outcome.resultText !== null ? receipts.completed(outcome.resultText) : receipts.withoutReport();
}

async function loadTaskPrompt(deps: ActivityDeps, leadTurns: LeadTurnCalls, input: SubagentTaskInput): Promise<TaskPrompt | null> {
  if (input.kind === 'batchItem') {
    // Items are owner-scoped: the owner is the user the item runs for.
    const item = await deps.stores.batches.getItem(input.batchId, input.userId, input.key);
    return item ? { prompt: item.prompt, acceptanceCriteria: item.acceptance_criteria ?? undefined } : null;
  }
  const call = await leadTurns.callOf(input.threadId, input.runId, input.turn, input.toolCallId ?? input.taskId);
  return call === null ? null : taskPromptOf(call);
}

/** What a pooled subagent agent is built from: executions with the same {@link shapeKey} share one. */
interface SubagentShape {
  readonly def: SubagentDefinition;
  readonly modelName: string;
  readonly role: ModelRole;
  /** The execution's tools; the agent takes their names and schemas. */
  readonly tools: readonly StructuredToolInterface[];
  readonly systemPrompt: string;
  readonly skills: readonly SkillMetadata[];
  readonly deferred: readonly McpToolEntry[];
  readonly checkpoints: boolean;
}

/**
 * The key of a shape: the definition's name, the model, the system prompt (which holds the
 * definition's prompt, the skills and deferred tools listed, the receipt and criteria sections),
 * the tools by name, the skills (their tool rules), and which MCP tools, by identity (a reconnected
 * server's tools are new objects, maybe with new schemas).
 */
function shapeKey(shape: SubagentShape, mcp: readonly McpToolEntry[]): string {
  const shared = new Set<object>(mcp.map((e) => e.tool));
  const tools = shape.tools.map((t) => (shared.has(t) ? `${t.name}#${identityOf(t)}` : t.name));
  return JSON.stringify([shape.def.name, shape.modelName, shape.systemPrompt, tools, shape.skills, shape.deferred.map((e) => identityOf(e.tool))]);
}

/**
 * A subagent's tools for one execution: built-in (bound to the task's thread workspace, the skills
 * mounted read-only) and this worker's connected MCP servers', allowlist, then denylist.
 */
function subagentTools(
  deps: ActivityDeps,
  input: SubagentTaskInput,
  def: SubagentDefinition,
  skills: readonly SkillMetadata[],
  mcp: readonly McpToolEntry[],
): StructuredToolInterface[] {
  const dataDir = deps.config.store.data_dir;
  const skillStorage = getOrNewUserSkillStorage(dataDir, input.userId);
  const workspace = new ThreadWorkspace(dataDir, input.threadId, input.kind === 'batchItem' ? { batchId: input.batchId, itemKey: input.key } : undefined);
  return [
    ...createAgentTools({
      workspace,
      sandbox: deps.config.sandbox,
      webFetch: deps.config.web_fetch,
      names: null,
      readOnlyMounts: skills.length > 0 ? [{ prefix: SKILLS_VIRTUAL_ROOT, resolve: (path) => skillStorage.resolveVirtualPath(path) }] : [],
    }),
    ...mcp.map((e) => e.tool),
  ].filter((t) => subagentHasTool(def, t.name));
}

/**
 * The execution's tools by name, for the pooled agent to call.
 * @throws Error when one the agent was built with is missing: it would run another execution's.
 */
function executionTools(tools: readonly StructuredToolInterface[], agentTools: readonly string[]): Map<string, StructuredToolInterface> {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const missing = agentTools.filter((name) => !byName.has(name));
  if (missing.length > 0) throw new Error(`the execution has no tool ${missing.join(', ')} of its pooled agent`);
  return byName;
}

/**
 * The subagent agent of a shape, built once and lent to one execution at a time through its slot:
 * one system message with the skills (loaded by the caller; load errors fail the task) listed as
 * metadata and the deferred tools listed by name (registered, but kept out of requests until
 * promoted), the middleware chain, and the execution slot innermost. Its model and tools are
 * the first execution's, created without its callbacks, and give only names and schemas: every call
 * goes to the bound execution's own (see `executionSlotMiddleware`).
 */
function buildPooledAgent(deps: ActivityDeps, shape: SubagentShape) {
  const slot = new ExecutionSlot();
  const summaryModel = (): BaseChatModel => {
    const model = slot.current.summaryModel;
    if (model === undefined) throw new Error('summarization is on and the bound execution has no summary model');
    return model;
  };
  const chain = buildSubagentMiddleware({
    config: deps.config,
    agentName: shape.def.name,
    summaryModel: deps.config.summarization.enabled ? summaryModel : undefined,
    skills: shape.skills,
    ...(shape.deferred.length === 0 ? {} : { deferredTools: { deferred: [...shape.deferred], maxResults: deps.config.tool_search.max_results } }),
  });
  const middleware = [...(deps.config.verification.receipts_enabled ? withToolReceipts(chain) : chain), executionSlotMiddleware(slot)];
  const agent = createAgent({
    model: deps.createModel(shape.modelName, shape.role, []),
    tools: [...shape.tools],
    systemPrompt: shape.systemPrompt,
    name: shape.def.name,
    middleware,
    // Without resume, no checkpointer at all (never one inherited from a caller's config).
    checkpointer: shape.checkpoints ? new BoundCheckpoints(slot, deps.stores.checkpoints) : false,
  });
  return { agent, middleware, guards: stopReasonGuards(middleware), slot, toolNames: shape.tools.map((t) => t.name) };
}

type PooledSubagentAgent = ReturnType<typeof buildPooledAgent>;

async function finish(
  deps: ActivityDeps,
  input: SubagentTaskInput,
  modelName: string,
  outcome: Outcome,
  usage: TokenUsage | null,
  steps: number,
  evidence: SubagentEvidence | null = null,
  resumed: ResumePoint | null = null,
): Promise<SubagentExecutionResult> {
  const text = outcome.resultText;
  const scope = executionScopeOf(input);
  const resultRef = text === null ? null : await untilStored(() => deps.stores.results.putResult({ ...scope, attempt: input.attempt, text }));
  return {
    taskId: scope.taskId,
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
    ...(resumed === null ? {} : { resumedSteps: resumed.steps }),
    evidence,
  };
}
