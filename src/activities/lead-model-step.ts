import { AIMessage, HumanMessage, mapChatMessagesToStoredMessages, mapStoredMessageToChatMessage, SystemMessage } from '@langchain/core/messages';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { bindLeadTools } from '../mcp';
import { TASK_TOOL_NAME, type LeadModelStepInput, type LeadModelStepWithOutcomesInput, type LeadModelTurn } from '../contracts';
import { askClarificationToolSpec, batchTaskToolSpec, formatPromptDate, taskToolSpec, type FunctionToolSpec } from '../prompts';
import { leadTaskToolOptions, readManagedDefinitions, renderLeadSystemPrompt } from '../registry';
import { messageKeys } from '../store';
import { createAgentTools, ThreadWorkspace, toolSearchToolSpec } from '../tools';
import type { ActivityDeps } from './activity-deps';
import { readAdmissionSnapshot, warmAdmissionSnapshot } from './admit-subagents';
import { withHeartbeats } from './heartbeat';
import { parseActivityInput } from './parse-activity-input';
import { toAiMessage, toLeadTurn } from './lead-turn';
import { writeToolOutcomes } from './record-tool-outcome';
import { putThreadMessages } from './thread-writes';
import { toolOutcomeMessage } from './tool-outcome-message';
import { threadLedger } from './thread-ledger';
import { leadRequestHistory } from './lead-compaction';
import { DEFAULT_LLM_RETRY_POLICY, durableContextMessages, renderDurableContextData } from '../middleware';
import { callWithLlmRetries } from '../middleware/agent';
import { abortableDelay } from '../models/abortable-delay';
import { usedToolCallIds, withUniqueToolCallIds } from './unique-tool-call-ids';
import { UsageCollector } from './usage-collector';
import { deerflowIdsOf, inModelCallSpan } from '../telemetry';

/** Builds the `leadModelStep` activity. */
export function createLeadModelStep(deps: ActivityDeps) {
  return async function leadModelStep(raw: LeadModelStepInput): Promise<LeadModelTurn> {
    return modelStep(deps, parseActivityInput('leadModelStep', raw));
  };
}

/**
 * Builds the `leadModelStepWithOutcomes` activity: the outcomes of the previous response's last
 * calls, written first (keyed, so a retry writes nothing twice and a step that stored its answer
 * finds them written), then the model step.
 */
export function createLeadModelStepWithOutcomes(deps: ActivityDeps) {
  return async function leadModelStepWithOutcomes(raw: LeadModelStepWithOutcomesInput): Promise<LeadModelTurn> {
    const { outcomes, ...input } = parseActivityInput('leadModelStepWithOutcomes', raw);
    await writeToolOutcomes(deps, input.threadId, input.runId, outcomes);
    return modelStep(deps, input);
  };
}

/** One lead model call: pending messages written, the model called, its answer stored (once). */
async function modelStep(deps: ActivityDeps, input: LeadModelStepInput): Promise<LeadModelTurn> {
  const key = messageKeys.ai(input.runId, input.turn);
  // A retry after the message was stored returns it: no second model call, no changed answer.
  // The per-response limit never exceeds what this worker was started with, whatever the run asked for.
  const maxConcurrent = Math.min(input.limits.maxConcurrent, deps.config.subagent_runtime.max_running);
  const existing = await deps.stores.messages.getMessage(input.threadId, key);
  if (existing) return withAdmission(deps, input, toLeadTurn(key, toAiMessage(existing), input.modelName, maxConcurrent));
  // A response that delegates takes the queue's backlog at the end; asked for now, the reading
  // runs beside the model call instead of after it.
  if (input.admissionSnapshot && input.catalog.length > 0) warmAdmissionSnapshot(deps);
  // The run's snapshot names MCP tools by entry (`<server>__*`); the prompt lists the tools bound
  // and, when the run defers MCP tools, those still behind `tool_search`.
  const ownTools = leadTools(deps, input);
  const promptInput = { ...input, limits: { ...input.limits, maxConcurrent }, leadTools: ownTools.names, deferredTools: ownTools.deferred };

  await writePendingMessages(deps, input);
  const records = await deps.stores.messages.listMessages(input.threadId);
  const thread = records.map((r) => mapStoredMessageToChatMessage(r.message));
  // Dangling calls repaired, user input framed, tool results neutralized, then compacted when
  // summarization is on: the summary joins the durable context, the delegation ledger below is
  // still derived from every stored record.
  // The step's usage counts each model call it makes: the compaction summarizer's and the lead's.
  const usage = new UsageCollector();
  const { messages: history, summaryText } = await leadRequestHistory(deps, { input, records, thread, usage });
  const now = (deps.now ?? (() => new Date()))();
  // Policy, limits and the catalog's names come from the run's snapshot (input); definitions'
  // texts are read now. The same renderer backs `deerflow prompt lead`.
  const managed = await readManagedDefinitions(deps.stores.agents);
  const system = renderLeadSystemPrompt(deps.config, promptInput, formatPromptDate(now), managed);
  const context = durableContext(threadLedger(records, now), summaryText);
  const model = deps.createModel(input.modelName, { kind: 'lead' });
  const taskTool = leadTaskToolOptions(deps.config, promptInput, managed);
  const batches = deps.config.subagent_batches;
  // `batch_task` is offered only where batches are on; it is never chosen for the model.
  const tools = [
    ...(taskTool
      ? [taskToolSpec(taskTool), ...(batches.enabled ? [batchTaskToolSpec({ subagentNames: taskTool.subagentNames, maxItems: batches.max_items_per_batch })] : [])]
      : []),
    ...(input.clarification ? [askClarificationToolSpec()] : []),
    ...ownTools.tools,
  ];
  const runnable = tools.length > 0 && model.bindTools ? model.bindTools(tools) : model;
  // Guard warnings go last and only into this request, never into the thread (SPEC Appendix D).
  const warnings = input.warnings.map((w) => new HumanMessage({ content: w.text, name: w.name }));
  const request = [new SystemMessage([system, ...context.system].join('\n\n')), ...context.data, ...history, ...warnings];
  // Transient provider errors are retried; a final failure comes back as the error fallback message.
  const response = await withHeartbeats((signal) =>
    callWithLlmRetries(
      () =>
        inModelCallSpan({ ids: deerflowIdsOf(input), model: input.modelName, agent: input.agentName, turn: input.turn }, () =>
          runnable.invoke(request, {
            signal,
            callbacks: [usage],
            tags: ['lead', `agent:${input.agentName}`],
            metadata: { thread_id: input.threadId, run_id: input.runId, turn: input.turn },
          }),
        ),
      { policy: deps.llmRetryPolicy ?? DEFAULT_LLM_RETRY_POLICY, sleep: abortableDelay, signal },
    ),
  );
  const ai = withUniqueToolCallIds(normalizeAiMessage(response, input), usedToolCallIds(thread), input.runId, input.turn);
  const [stored] = mapChatMessagesToStoredMessages([ai]);
  if (stored === undefined) throw new Error('Could not serialize the model response');
  const { inserted } = await deps.stores.messages.putMessageIfAbsent({ threadId: input.threadId, runId: input.runId, key, message: stored });
  const kept = inserted ? ai : toAiMessage((await deps.stores.messages.getMessage(input.threadId, key)) ?? stored);
  return withAdmission(deps, input, toLeadTurn(key, kept, input.modelName, maxConcurrent, usage.total));
}

/**
 * Adds the admission snapshot to a response with `task` calls when the run asked for it: read
 * here, at the end of the step (from the reading the step asked for when it started, while that
 * is fresh), it spares the run an `admitSubagents` activity before it schedules them.
 */
async function withAdmission(deps: ActivityDeps, input: LeadModelStepInput, turn: LeadModelTurn): Promise<LeadModelTurn> {
  if (!input.admissionSnapshot || !turn.toolCalls.some((call) => call.name === TASK_TOOL_NAME)) return turn;
  return { ...turn, admission: await readAdmissionSnapshot(deps) };
}

/**
 * The delegation ledger and the compaction summary as request-only durable context (SPEC §6.5):
 * the authority contract joins the single system message (strict providers accept one), the data
 * follows as a hidden message.
 */
function durableContext(
  ledger: Parameters<typeof renderDurableContextData>[0]['ledger'],
  summaryText: string | null,
): { system: string[]; data: HumanMessage[] } {
  const specs = durableContextMessages(renderDurableContextData({ summaryText, ledger }));
  return {
    system: specs.flatMap((m) => (m.role === 'system' ? [m.content] : [])),
    data: specs.flatMap((m) => (m.role === 'human' ? [new HumanMessage({ content: m.content, additional_kwargs: { ...m.additional_kwargs } })] : [])),
  };
}

/** Writes the run's opening user message (turn 0) and the previous turn's tool results. */
async function writePendingMessages(deps: ActivityDeps, input: LeadModelStepInput): Promise<void> {
  const writes: Array<{ key: string; message: HumanMessage | Awaited<ReturnType<typeof toolOutcomeMessage>> }> = [];
  if (input.turn === 0 && input.message !== null) {
    writes.push({
      key: messageKeys.input(input.runId),
      message: new HumanMessage({ content: input.message, additional_kwargs: { run_id: input.runId } }),
    });
  }
  for (const outcome of input.toolOutcomes) {
    writes.push({ key: messageKeys.tool(input.runId, outcome.toolCallId), message: await toolOutcomeMessage(outcome, deps.stores.results, deps.stores.batches) });
  }
  await putThreadMessages(deps, input.threadId, input.runId, writes);
}

/**
 * The lead's own tools for this step, bound beside `task` (their calls run as `runLeadTool`
 * activities): the built-in ones the run allows, `tool_search` when the run defers MCP tools, then
 * the allowed tools of this worker's connected MCP servers, or with deferral the promoted ones (a
 * server that is down has none bound; a call to its tool is answered with its status).
 */
function leadTools(
  deps: ActivityDeps,
  input: LeadModelStepInput,
): { tools: Array<StructuredToolInterface | FunctionToolSpec>; names: string[]; deferred: Array<{ name: string; description: string }> } {
  if (input.leadTools.length === 0) return { tools: [], names: [], deferred: [] };
  const { config } = deps;
  const builtIn = createAgentTools({
    workspace: new ThreadWorkspace(config.store.data_dir, input.threadId),
    sandbox: config.sandbox,
    webFetch: config.web_fetch,
    names: input.leadTools,
  });
  const binding = bindLeadTools(input.leadTools, deps.mcp?.entries() ?? [], input.promotedTools);
  const search = binding.searchable.length > 0 ? [toolSearchToolSpec(config.tool_search.max_results)] : [];
  return { tools: [...builtIn, ...search, ...binding.bound.map((e) => e.tool)], names: binding.names, deferred: binding.deferred };
}

/** Gives the message a stable id derived from the run and turn when the provider sent none. */
function normalizeAiMessage(response: AIMessage, input: LeadModelStepInput): AIMessage {
  return new AIMessage({
    content: response.content,
    id: response.id ?? `lead_${input.runId}_${input.turn}`,
    tool_calls: response.tool_calls ?? [],
    invalid_tool_calls: response.invalid_tool_calls,
    usage_metadata: response.usage_metadata,
    response_metadata: response.response_metadata,
    additional_kwargs: response.additional_kwargs,
  });
}

