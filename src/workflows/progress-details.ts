import type { LeadRunState, TokenUsage } from '../contracts';
import { addUsage } from '../contracts/add-usage';

function countByStatus(items: readonly { readonly status: string }[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  return [...counts.entries()].map(([status, n]) => `${n} ${status}`).join(', ');
}

/** Tokens the run spent so far: the lead's plus every task's (running tasks report theirs as they go). */
function runUsage(state: LeadRunState): TokenUsage | null {
  return state.tasks.reduce<TokenUsage | null>((sum, task) => addUsage(sum, task.usage), state.leadUsage);
}

/**
 * The live "current details" Temporal Web shows for a lead run (pure): turn, tasks and direct tool
 * calls counted by status, and the tokens spent so far, left out while no model reported usage.
 */
export function progressDetails(state: LeadRunState): string {
  const tools = state.leadTools.length > 0 ? ` · direct calls: ${countByStatus(state.leadTools)}` : '';
  const usage = runUsage(state);
  const tokens = usage === null ? '' : ` · tokens: ${usage.total_tokens} (${usage.input_tokens} in, ${usage.output_tokens} out)`;
  return `**${state.status}** · lead turn ${state.turn + 1} · tasks: ${countByStatus(state.tasks) || 'none yet'}${tools}${tokens}`;
}
