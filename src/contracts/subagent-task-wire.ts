import type { BatchItemExecution, LeadTaskExecution, SubagentTaskInput } from './subagent-task-input';

/** The untagged batch-item fields that `runSubagent` of the release before the tagged input reads. */
interface UntaggedItemFields {
  readonly runId: string;
  readonly taskId: string;
  readonly turn: 0;
  readonly batchItem: { readonly batchId: string; readonly key: string };
}

/** A `runSubagent` input as workflows schedule it (see {@link subagentTaskWire}). */
export type SubagentTaskWire = LeadTaskExecution | (BatchItemExecution & UntaggedItemFields);

/**
 * The input a workflow schedules `runSubagent` with. In a rolling deploy, an activity a new workflow
 * schedules may run on a worker of the previous release, which reads the untagged shape: a lead task
 * already carries every field it reads, a batch item also gets its stand-ins. The release after
 * this one, when no such worker is left, sends the tagged input alone. Zod-free: workflows import it.
 */
export function subagentTaskWire(input: SubagentTaskInput): SubagentTaskWire {
  if (input.kind === 'task') return input;
  return { ...input, runId: input.batchId, taskId: input.key, turn: 0, batchItem: { batchId: input.batchId, key: input.key } };
}
