import type { RunEvent, TokenUsage } from '../contracts';

/**
 * Running token totals of a run's subagents for a live status line. Step events carry each
 * task's cumulative usage, so the latest value per task replaces the previous one (never summed).
 */
export class UsageTally {
  private readonly perTask = new Map<string, TokenUsage>();

  add(event: RunEvent): void {
    if (event.taskId === null || typeof event.payload !== 'object' || event.payload === null) return;
    const usage = (event.payload as { usage?: TokenUsage | null }).usage;
    if (usage) this.perTask.set(event.taskId, usage);
  }

  line(): string {
    const totals = [...this.perTask.values()].reduce(
      (sum, u) => ({ input: sum.input + u.input_tokens, output: sum.output + u.output_tokens, total: sum.total + u.total_tokens }),
      { input: 0, output: 0, total: 0 },
    );
    if (this.perTask.size === 0) return 'subagent tokens: none reported yet';
    return `subagent tokens: ${totals.total} (${totals.input} in, ${totals.output} out) across ${this.perTask.size} task(s)`;
  }
}
