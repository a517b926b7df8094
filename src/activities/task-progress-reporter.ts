import { Context, log } from '@temporalio/activity';
import type { SubagentProgress, SubagentTaskInput } from '../contracts';
import { taskProgressSignal } from '../workflows/lead-run-messages';

/**
 * Publishes a running subagent execution's progress: as heartbeat details every time, and to its
 * lead run (signal `taskProgress`) whenever the usage or the evidence changed. The run needs the
 * signal because a cancelled activity's failure never reaches it (the run stops waiting at once)
 * and Temporal's own timeouts carry only a throttled heartbeat; the run keeps the latest report on
 * the task. Best effort: a failed report never fails the task. Batch items run under item
 * workflows, which take no reports.
 */
export class TaskProgressReporter {
  readonly #ctx = Context.current();
  #sent: string | null = null;

  constructor(private readonly input: SubagentTaskInput) {}

  async publish(progress: SubagentProgress): Promise<void> {
    this.#ctx.heartbeat(progress);
    const workflowId = this.#ctx.info.workflowExecution?.workflowId;
    const key = JSON.stringify([progress.usage, progress.evidence]);
    if (this.input.kind !== 'task' || workflowId === undefined || key === this.#sent) return;
    this.#sent = key;
    const { taskId, attempt } = this.input;
    try {
      await this.#ctx.client.workflow.getHandle(workflowId).signal(taskProgressSignal, { taskId, attempt, progress });
    } catch (err) {
      log.warn('Reporting task progress to the run failed', { taskId, error: String(err) });
    }
  }
}
