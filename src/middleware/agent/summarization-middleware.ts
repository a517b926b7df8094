import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, RemoveMessage, SystemMessage } from '@langchain/core/messages';
import { REMOVE_ALL_MESSAGES } from '@langchain/langgraph';
import { createMiddleware } from 'langchain';
import { z } from 'zod';
import { addUsage, TokenUsageSchema, usageOfMessage } from '../../contracts';
import { compactionCut, renderForSummary, shouldCompact, SUMMARY_INSTRUCTIONS } from '../compaction';
import { isCancellationError } from '../llm-error-handling';

export const SUMMARIZATION_MIDDLEWARE_NAME = 'SummarizationMiddleware';

/**
 * The summary lives in state, outside the message list; durable context projects it. Beside it,
 * what the compacted responses and the summaries cost, which the kept messages no longer show: a
 * resumed execution counts it with theirs.
 */
export const SummaryStateSchema = z.object({
  summary_text: z.string().nullable().default(null),
  compacted_usage: TokenUsageSchema.nullable().default(null),
});

const OptionsSchema = z.strictObject({
  /** The model, or where to find it at each compaction (an agent built once for many executions). */
  model: z.custom<BaseChatModel | (() => BaseChatModel)>((v) => typeof v === 'function' || (typeof v === 'object' && v !== null && 'invoke' in v), 'must be a chat model or a function returning one'),
  trigger: z.strictObject({ tokens: z.number().int().positive().optional(), messages: z.number().int().positive().optional() }),
  keep: z.strictObject({ messages: z.number().int().positive() }),
});
export type SummarizationMiddlewareOptions = z.input<typeof OptionsSchema>;

/**
 * Context compaction (SPEC §6.5, design note "Context compaction"): once the trigger is met, the
 * older messages are summarized into `summary_text` (state, not a message) and removed, keeping the
 * last `keep.messages` (never starting with an orphaned tool result). The durable-context
 * middleware projects the summary into every later request as hidden data, so a request never
 * starts with an assistant or tool message. A failed summary leaves history untouched.
 */
export function summarizationMiddleware(options: SummarizationMiddlewareOptions) {
  const { model, trigger, keep } = OptionsSchema.parse(options);
  return createMiddleware({
    name: SUMMARIZATION_MIDDLEWARE_NAME,
    stateSchema: SummaryStateSchema,
    beforeModel: async (state, runtime) => {
      if (!shouldCompact(state.messages, trigger)) return undefined;
      const cut = compactionCut(state.messages, keep.messages);
      if (cut <= 0) return undefined;
      let summary: string;
      let summaryUsage: ReturnType<typeof usageOfMessage>;
      try {
        const answer = await (typeof model === 'function' ? model() : model).invoke(
          [new SystemMessage(SUMMARY_INSTRUCTIONS), new HumanMessage(renderForSummary(state.summary_text, state.messages.slice(0, cut)))],
          { signal: runtime.signal },
        );
        summary = answer.text.trim();
        summaryUsage = usageOfMessage(answer);
      } catch (err) {
        if (runtime.signal?.aborted === true || isCancellationError(err)) throw err;
        // Compaction is an optimisation: keep the full history rather than lose it.
        return undefined;
      }
      if (summary === '') return undefined;
      const removedUsage = state.messages.slice(0, cut).reduce((sum, m) => (AIMessage.isInstance(m) ? addUsage(sum, usageOfMessage(m)) : sum), state.compacted_usage);
      return {
        summary_text: summary,
        compacted_usage: addUsage(removedUsage, summaryUsage),
        messages: [new RemoveMessage({ id: REMOVE_ALL_MESSAGES }), ...state.messages.slice(cut)],
      };
    },
  });
}
