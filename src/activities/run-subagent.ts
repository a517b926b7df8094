import type { BaseMessage } from '@langchain/core/messages';
import { GraphRecursionError } from '@langchain/langgraph';
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { BaseCheckpointSaver } from '@langchain/langgraph-checkpoint';
import { createAgent, type AgentMiddleware } from 'langchain';
import { recursionLimitForTurns } from '../middleware/turn-recursion-limit';
import { buildSubagentMiddleware, consumeStopReason, stopReasonGuards, subagentInputMessages } from '../middleware/agent';
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
import type { ActivityDeps } from './activity-deps';
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
    try {
      const outcome = await withHeartbeats(async (cancelled) => {
        const signal = deadline === null ? cancelled : AbortSignal.any([cancelled, deadline.signal]);
        const summaryModel = deps.config.summarization.enabled
          ? deps.createModel(deps.config.summarization.model ?? modelName, { kind: 'summarizer' }, [usage])
          : undefined;
        // Loaded once: the prompt lists them and the skill tool policy enforces their allowed_tools.
        const skills = await loadSubagentSkills({ dataDir: deps.config.store.data_dir, userId: input.userId, allowlist: intersectSkillAllowlists(input.availableSkills, def.skills) });
        // With tool_search on, its MCP tools wait behind it; promotions last for this task only.
        const deferred = subagentDeferredTools(deps.config, def, deps.mcp?.entries() ?? []);
        const deferredTools = deferred === null ? undefined : { deferred, maxResults: deps.config.tool_search.max_results };
        const chain = buildSubagentMiddleware({ config: deps.config, agentName: def.name, summaryModel, skills, deferredTools });
        // Spans innermost: one per provider call and per tool execution, with the task's ids.
        const spans = agentSpansMiddleware({ ids: deerflowIdsOf(input), model: modelName, agent: def.name });
        const middleware = [
          ...(receiptsEnabled ? withToolReceipts(chain) : chain),
          // A tool round's receipts are new evidence for the run before the next model call.
          reporter.flushBeforeCalls((conversation) => {
            // Harvested already when the stream has caught up with the graph.
            if (receipts === null || (conversation.length === messages.length && conversation.at(-1)?.id === messages.at(-1)?.id)) return;
            const known = receipts.receipts.length;
            receipts.observe(conversation);
            if (receipts.receipts.length !== known) reporter.publish(progress());
          }),
          ...(checkpoints === null ? [] : [checkpoints.storeBeforeCalls()]),
          spans,
        ];
        const guards = stopReasonGuards(middleware);
        // One key per execution: guards keep per-run state, and a retry is a new run.
        const runKey = `${scope.runId}:${scope.taskId}#${input.attempt}`;
        const agent = await buildAgent(deps, input, def, modelName, prompt, middleware, taskMessage.hasCriteria, checkpoints, skills, deferred ?? [], usage);
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
          if (err instanceof GraphRecursionError) return turnCappedOutcome(messages, input.maxTurns, consumeStopReason(guards, runKey));
          throw err;
        }
        rethrowIfCancelled(signal);
        return finishedOutcome(messages, consumeStopReason(guards, runKey));
      }, progress);
      // Heartbeats go on while the result is stored: a store outage must not cost the lease.
      const result = await withHeartbeats(() => finish(deps, input, modelName, outcome, usage.total, steps, evidenceOf(receipts, outcome), resumed), progress);
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

/**
 * The subagent for one task: its model (counting into `usage`), its tools (built-in and this worker's connected MCP
 * servers', allowlist, then denylist), and one system message with its skills (loaded by the caller; load errors fail the task) listed as metadata
 * and its `deferred` tools listed by name (registered, but kept out of requests until promoted).
 */
async function buildAgent(
  deps: ActivityDeps,
  input: SubagentTaskInput,
  def: SubagentDefinition,
  modelName: string,
  prompt: string,
  middleware: AgentMiddleware[],
  hasAcceptanceCriteria: boolean,
  checkpointer: BaseCheckpointSaver | null,
  skills: readonly SkillMetadata[],
  deferred: readonly McpToolEntry[],
  usage: UsageCollector,
) {
  const dataDir = deps.config.store.data_dir;
  const skillStorage = getOrNewUserSkillStorage(dataDir, input.userId);
  const workspace = new ThreadWorkspace(dataDir, input.threadId, input.kind === 'batchItem' ? { batchId: input.batchId, itemKey: input.key } : undefined);
  const tools = [
    ...createAgentTools({
      workspace,
      sandbox: deps.config.sandbox,
      webFetch: deps.config.web_fetch,
      names: null,
      readOnlyMounts: skills.length > 0 ? [{ prefix: SKILLS_VIRTUAL_ROOT, resolve: (path) => skillStorage.resolveVirtualPath(path) }] : [],
    }),
    ...(deps.mcp?.entries().map((e) => e.tool) ?? []),
  ].filter((t) => subagentHasTool(def, t.name));
  return createAgent({
    model: deps.createModel(modelName, { kind: 'subagent', taskPrompt: prompt, attempt: input.attempt }, [usage]),
    tools,
    systemPrompt: renderSubagentSystemPrompt(def.systemPrompt, {
      receiptsEnabled: deps.config.verification.receipts_enabled,
      hasAcceptanceCriteria,
      skillsSection: buildSkillsSection(skills),
      deferredToolsSection: buildDeferredToolsSection(deferred),
    }),
    name: def.name,
    middleware,
    // Without resume, no checkpointer at all (never one inherited from a caller's config).
    checkpointer: checkpointer ?? false,
  });
}

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
