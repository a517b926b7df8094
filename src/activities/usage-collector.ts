import { BaseCallbackHandler } from '@langchain/core/callbacks/base';
import { AIMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import { addUsage, usageOfMessage, type TokenUsage } from '../contracts';

/**
 * Counts the usage of every model response of one execution (SPEC §5 "token collector"): one
 * record per LLM run id, from the first generation that reports usage; zero or absent usage
 * records nothing, so the total stays null rather than zero.
 *
 * It is a LangChain callback handler rather than middleware because a model hook only sees the
 * agent's own calls: the compaction summarizer is invoked from inside a `beforeModel` hook (and
 * the lead's from its step activity). A subagent execution attaches it to each model it builds
 * (the agent's and the summarizer's), not to the run's config: LangChain copies a run's handlers
 * into every runnable the graph invokes, about 1 ms of CPU per one-turn task (bench/FINDINGS.md).
 * Counting responses instead of summing the transcript keeps usage when compaction replaces
 * the messages that carried it.
 */
export class UsageCollector extends BaseCallbackHandler {
  override name = 'usage-collector';
  readonly #counted = new Set<string>();
  readonly #onRecord: ((total: TokenUsage) => void | Promise<void>) | undefined;
  #total: TokenUsage | null = null;

  /**
   * @param onRecord - called (and awaited) with the new total after each counted response, to publish it
   * @param initial - usage already spent by responses this execution takes over (a resumed attempt)
   */
  constructor(onRecord?: (total: TokenUsage) => void | Promise<void>, initial: TokenUsage | null = null) {
    // Awaited, so the total already includes a response when the run moves past that call.
    super({ _awaitHandler: true });
    this.#onRecord = onRecord;
    this.#total = initial;
  }

  /** Cumulative usage so far, or null when no response reported any. */
  get total(): TokenUsage | null {
    return this.#total;
  }

  override async handleLLMEnd(output: LLMResult, runId: string): Promise<void> {
    if (this.#counted.has(runId)) return;
    for (const generation of output.generations.flat()) {
      const message: unknown = 'message' in generation ? generation.message : undefined;
      const usage = AIMessage.isInstance(message) ? usageOfMessage(message) : null;
      if (usage === null) continue;
      this.#counted.add(runId);
      const total = addUsage(this.#total, usage) ?? usage;
      this.#total = total;
      await this.#onRecord?.(total);
      return;
    }
  }
}
