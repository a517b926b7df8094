import type { LeadRunState } from '../contracts';

/** The live "current details" Temporal Web shows for a lead run: turn and task counts (pure). */
export function progressDetails(state: LeadRunState): string {
  const counts = new Map<string, number>();
  for (const task of state.tasks) counts.set(task.status, (counts.get(task.status) ?? 0) + 1);
  const tasks = [...counts.entries()].map(([status, n]) => `${n} ${status}`).join(', ');
  return `**${state.status}** · lead turn ${state.turn + 1} · tasks: ${tasks || 'none yet'}`;
}
