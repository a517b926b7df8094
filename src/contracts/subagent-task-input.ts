import { z } from 'zod';

const id = z.string().trim().min(1);

/** What every subagent execution carries, whether a lead task or a batch item. */
const executionFields = {
  threadId: id,
  userId: id,
  /** 1-based execution number, chosen by the workflow. */
  attempt: z.number().int().min(1),
  subagentType: id,
  description: z.string(),
  parentModel: id,
  maxTurns: z.number().int().positive(),
  /** The parent run's skills snapshot, intersected with the subagent's own skills. */
  availableSkills: z.array(z.string()).nullable().default(null),
};

/** A `task` call of a lead run. The task prompt is read from the stored AI message of its turn. */
export const LeadTaskExecutionSchema = z.object({
  kind: z.literal('task'),
  ...executionFields,
  runId: id,
  /**
   * The id the run gave the `task` call (`<turn>.<index>`): the key of its activity, events and
   * result. Runs recorded before the run assigned ids used the provider's tool-call id.
   */
  taskId: id,
  /** The call's tool-call id in the stored lead message (unique in the thread); absent = `taskId`. */
  toolCallId: id.optional(),
  /** Lead turn whose AI message holds the `task` call. */
  turn: z.number().int().nonnegative(),
  /**
   * The task's timeout when the execution enforces its own, extendable deadline (the activity's
   * start-to-close is then only a backstop): at that deadline it asks the run (query `taskTimeout`)
   * for extensions. Absent: the start-to-close timeout is the deadline.
   */
  deadlineSeconds: z.number().int().positive().optional(),
});
export type LeadTaskExecution = z.infer<typeof LeadTaskExecutionSchema>;

/** One item of a batch. The prompt is the item's stored row. */
export const BatchItemExecutionSchema = z.object({
  kind: z.literal('batchItem'),
  ...executionFields,
  batchId: id,
  key: id,
});
export type BatchItemExecution = z.infer<typeof BatchItemExecutionSchema>;

/**
 * Input of the `runSubagent` activity. Workflows of the release before the tagged shape sent one
 * untagged object, with a batch item's ids in `batchItem` beside stand-ins (`runId` = batch id,
 * `taskId` = key, `turn` 0); such inputs stay in histories and in flight, so they are read too.
 */
export const SubagentTaskInputSchema = z.preprocess(
  tagUntaggedInput,
  z.discriminatedUnion('kind', [LeadTaskExecutionSchema, BatchItemExecutionSchema]),
);
export type SubagentTaskInput = LeadTaskExecution | BatchItemExecution;

function tagUntaggedInput(raw: unknown): unknown {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw) || 'kind' in raw) return raw;
  const { batchItem, ...fields } = raw as Record<string, unknown>;
  if (batchItem === undefined) return { ...fields, kind: 'task' };
  const item = typeof batchItem === 'object' && batchItem !== null ? (batchItem as Record<string, unknown>) : {};
  return { ...fields, kind: 'batchItem', batchId: item['batchId'], key: item['key'] };
}

/**
 * Where an execution's events, result and checkpoints are filed: a lead task under its run and
 * task id, a batch item under its batch id and key (the columns are named for runs; batches have
 * used them for their items since batches exist, so stored rows keep their keys).
 */
export interface SubagentExecutionScope {
  readonly threadId: string;
  readonly runId: string;
  readonly taskId: string;
}

export function executionScopeOf(input: SubagentTaskInput): SubagentExecutionScope {
  return input.kind === 'task'
    ? { threadId: input.threadId, runId: input.runId, taskId: input.taskId }
    : { threadId: input.threadId, runId: input.batchId, taskId: input.key };
}
