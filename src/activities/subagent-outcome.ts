import { AIMessage, type BaseMessage } from '@langchain/core/messages';
import { messageText, type StopReason, type SubagentExecutionResult } from '../contracts';
import { extractFinalResult } from './final-result';

/** How a subagent run ended, before it is stored and reported. */
export type SubagentOutcome = Pick<SubagentExecutionResult, 'status' | 'stopReason' | 'error'> & { resultText: string | null };

function lastAiMessage(messages: readonly BaseMessage[]): AIMessage | undefined {
  return [...messages].reverse().find((m): m is AIMessage => AIMessage.isInstance(m));
}

/**
 * The error of a handled LLM failure (SPEC §2.8): only the LAST assistant message counts, and only
 * when it carries `error_fallback: true`; its text, else `error_detail`, else a generic text. The
 * provider's own message (`error_detail`) is kept next to the user-facing text, so the lead and the
 * operator can see what the provider said. Error-looking prose without the marker is an answer.
 */
export function llmErrorFallback(messages: readonly BaseMessage[]): string | null {
  const last = lastAiMessage(messages);
  if (last === undefined || last.additional_kwargs.error_fallback !== true) return null;
  const raw = last.additional_kwargs.error_detail;
  const detail = typeof raw === 'string' ? raw.trim() : '';
  const text = messageText(last.content).trim();
  if (!text) return detail || 'LLM request failed';
  return detail && !text.includes(detail) ? `${text} (provider said: ${detail})` : text;
}

/** The run ended normally (SPEC §2.6 step 8): a marked LLM fallback fails it, else it completed. */
export function finishedOutcome(messages: readonly BaseMessage[], guardReason: StopReason | null): SubagentOutcome {
  const fallback = llmErrorFallback(messages);
  if (fallback !== null) return { status: 'failed', stopReason: null, error: fallback, resultText: null };
  return { status: 'completed', stopReason: guardReason, error: null, resultText: extractFinalResult(messages) };
}

/**
 * The run hit its turn cap (SPEC §2.6 step 9): a guard's own reason wins over `turn_capped`; the
 * last assistant text survives as a partial answer, otherwise the task failed.
 */
export function turnCappedOutcome(messages: readonly BaseMessage[], maxTurns: number, guardReason: StopReason | null): SubagentOutcome {
  const stopReason = guardReason ?? 'turn_capped';
  const fallback = llmErrorFallback(messages);
  if (fallback !== null) return { status: 'failed', stopReason, error: fallback, resultText: null };
  const last = lastAiMessage(messages);
  const partial = last ? messageText(last.content).trim() : '';
  return partial
    ? { status: 'completed', stopReason, error: null, resultText: partial }
    : { status: 'failed', stopReason, error: `Reached max_turns=${maxTurns}`, resultText: null };
}
