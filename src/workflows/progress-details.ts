import type { LeadRunState } from '../contracts';

function countByStatus(items: readonly { readonly status: string }[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item.status, (counts.get(item.status) ?? 0) + 1);
  return [...counts.entries()].map(([status, n]) => `${n} ${status}`).join(', ');
}

/** The live "current details" Temporal Web shows for a lead run: turn, task and direct tool call counts (pure). */
export function progressDetails(state: LeadRunState): string {
  const tools = state.leadTools.length > 0 ? ` · direct calls: ${countByStatus(state.leadTools)}` : '';
  return `**${state.status}** · lead turn ${state.turn + 1} · tasks: ${countByStatus(state.tasks) || 'none yet'}${tools}`;
}
