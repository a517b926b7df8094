import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { log } from '@temporalio/activity';
import type { LeadModelStepInput } from '../contracts';
import {
  DEFAULT_LLM_RETRY_POLICY,
  neutralizeToolMessages,
  planLeadCompaction,
  renderForSummary,
  repairDanglingToolCalls,
  requestOrigins,
  SUMMARY_INSTRUCTIONS,
} from '../middleware';
import { callWithLlmRetries } from '../middleware/agent';
import { abortableDelay } from '../models/abortable-delay';
import type { ThreadMessageRecord } from '../store';
import type { ActivityDeps } from './activity-deps';
import { frameLatestUserInput } from './frame-user-input';
import { withHeartbeats } from './heartbeat';
import type { UsageCollector } from './usage-collector';

/** The history part of one lead request. */
export interface LeadRequestHistory {
  /** What follows the system message and the durable context data. */
  readonly messages: BaseMessage[];
  /** Summary of the older messages left out of `messages`, for the durable context; null when none are. */
  readonly summaryText: string | null;
}

/** What a lead step passes in: its input and the thread it has just read. */
export interface LeadHistorySource {
  readonly input: Pick<LeadModelStepInput, 'threadId' | 'runId' | 'turn' | 'modelName' | 'agentName'>;
  /** The stored thread, in write order. */
  readonly records: readonly ThreadMessageRecord[];
  /** `records` as chat messages, index for index. */
  readonly thread: readonly BaseMessage[];
  /** Counts the summarizer's usage (the step's collector). */
  readonly usage?: UsageCollector;
}

/**
 * The lead's request history (SPEC §6.5): the stored thread made safe to send and,
 * with `summarization.enabled`, compacted like a subagent's.
 *
 * Order matters. (1) The dangling-call repair comes first: afterwards every tool call is answered
 * right after its assistant message and no tool message is orphaned, which is what lets a cut that
 * never starts at a tool message (`compactionCut`) keep calls and answers together. (2) Framing
 * and neutralization come next, so the summarizer reads the same escaped, framed text the lead
 * would (a tool result cannot pose as an instruction to the summarizer either); both keep every
 * message at its index. (3) Compaction last, on that valid request history: the kept part starts
 * at a user or assistant message, and the summary travels in the durable context data message
 * that precedes it, so the request still opens with one system message and a human message.
 *
 * The summary is stored per thread (`stores.summaries`), never as a thread message, keyed by the
 * last record it covers; a later compaction summarizes the stored summary plus the newly cut
 * messages. Write-once per coverage point: a retried or concurrent step that summarizes to the
 * same point uses the first stored text. A summarizer that fails leaves the history uncompacted
 * (the stored summary, if any, still applies); cancellation propagates.
 */
export async function leadRequestHistory(deps: ActivityDeps, source: LeadHistorySource): Promise<LeadRequestHistory> {
  const toToolMessage = (fields: ConstructorParameters<typeof ToolMessage>[0]) => new ToolMessage(fields);
  // Threads written by older code may hold calls nobody answered: providers reject those with a 400.
  const repaired = repairDanglingToolCalls(source.thread, toToolMessage);
  // Tool results and subagent reports are data: framework tags and input markers in them are escaped.
  const history = neutralizeToolMessages(frameLatestUserInput(repaired), toToolMessage);
  const settings = deps.config.summarization;
  if (!settings.enabled) return { messages: history, summaryText: null };

  const { input, records } = source;
  const stored = await deps.stores.summaries.latestSummary(input.threadId);
  const coveredThrough = stored === null ? -1 : records.findIndex((r) => r.key === stored.throughKey);
  // A summary whose message is not in the thread (never written by this code) is not used.
  const previous = coveredThrough >= 0 ? stored : null;
  const plan = planLeadCompaction(history, requestOrigins(source.thread, repaired), coveredThrough, {
    trigger: settings.trigger,
    keep: settings.keep.messages,
  });
  const uncompacted: LeadRequestHistory = { messages: history.slice(plan.start), summaryText: previous?.text ?? null };
  const through = plan.compact === null ? undefined : records[plan.compact.throughRecord];
  if (plan.compact === null || through === undefined) return uncompacted;

  const model = deps.createModel(settings.model ?? input.modelName, { kind: 'summarizer' });
  const prompt = renderForSummary(previous?.text ?? null, history.slice(plan.start, plan.compact.end));
  const text = await withHeartbeats((signal) => summarize(deps, model, prompt, source, signal));
  if (text === null) return uncompacted;
  const { summary } = await deps.stores.summaries.putSummaryIfAbsent({ threadId: input.threadId, throughKey: through.key, runId: input.runId, text });
  return { messages: history.slice(plan.compact.end), summaryText: summary.text };
}

/**
 * One summarizer call with the lead's retry policy. Compaction is an optimisation, so a final
 * failure (or an empty summary) gives null and the full history is kept; cancellation is rethrown.
 */
async function summarize(
  deps: ActivityDeps,
  model: BaseChatModel,
  prompt: string,
  { input, usage }: LeadHistorySource,
  signal: AbortSignal,
): Promise<string | null> {
  const answer = await callWithLlmRetries(
    () =>
      model.invoke([new SystemMessage(SUMMARY_INSTRUCTIONS), new HumanMessage(prompt)], {
        signal,
        ...(usage === undefined ? {} : { callbacks: [usage] }),
        // Not tagged 'lead': this is not a lead turn (recorders and tracing tell them apart).
        tags: ['summarizer', 'lead-compaction', `agent:${input.agentName}`],
        metadata: { thread_id: input.threadId, run_id: input.runId, turn: input.turn },
      }),
    { policy: deps.llmRetryPolicy ?? DEFAULT_LLM_RETRY_POLICY, sleep: abortableDelay, signal },
  );
  if (answer.additional_kwargs['error_fallback'] === true) {
    log.warn('Lead compaction skipped: the summarizer failed', { threadId: input.threadId, runId: input.runId, error: answer.text });
    return null;
  }
  const text = answer.text.trim();
  return text === '' ? null : text;
}
