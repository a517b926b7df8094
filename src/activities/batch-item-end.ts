import type { FinishBatchItemInput, TerminalBatchItemStatus } from '../contracts';
import type { ItemWriteOutcome } from '../store';
import type { ActivityDeps } from './activity-deps';
import { createTaskEndWriter } from './record-task-end';

/** Where an item's end is written: its batch, owner, thread and subagent. */
export interface ItemEndScope {
  readonly batchId: string;
  readonly ownerId: string;
  readonly threadId: string;
  readonly subagentName: string;
}

/** The item's end without its scope: what `finishBatchItem` carries beside the runtime. */
export type ItemEnd = Omit<FinishBatchItemInput, 'runtime'>;

/** Writes an item's end (see {@link createItemEndWriter}). */
export type ItemEndWriter = ReturnType<typeof createItemEndWriter>;

/**
 * Builds the writer of an item's end: the terminal write (fenced: a terminal row stays as it is),
 * then the item's single `subagent.end` event with the status the row holds, when the item ever
 * executed. `finishBatchItem` (the item workflow) and `runBatchItem` (a completed try) share it.
 */
export function createItemEndWriter(deps: ActivityDeps) {
  const batches = deps.stores.batches;
  const writeTaskEnd = createTaskEndWriter(deps);
  return async function writeItemEnd(scope: ItemEndScope, end: ItemEnd): Promise<ItemWriteOutcome> {
    const { key } = end;
    const result = end.status === 'completed' && end.resultRef ? ((await deps.stores.results.getResult(end.resultRef)) ?? null) : null;
    const attempts = end.attemptsFromRow ? ((await batches.getItem(scope.batchId, scope.ownerId, key))?.attempts ?? end.attempts) : end.attempts;
    const outcome = await batches.completeItem(scope.batchId, key, {
      status: end.status,
      result,
      resultSha256: result === null ? null : end.resultSha256,
      stopReason: end.stopReason,
      error: end.error,
      attempts,
      usage: end.usage,
      startedAt: end.startedAt,
      completedAt: end.completedAt,
    });
    if (attempts > 0) {
      const status = outcome.status as TerminalBatchItemStatus;
      const own = outcome.written;
      await writeTaskEnd({
        threadId: scope.threadId,
        runId: scope.batchId,
        task: {
          taskId: key,
          turn: 0,
          subagent: scope.subagentName,
          description: key,
          status,
          stopReason: own ? end.stopReason : null,
          modelName: end.modelName,
          usage: end.usage,
          resultSha256: own ? end.resultSha256 : null,
          resultRef: own && status === 'completed' ? end.resultRef : null,
          error: own ? end.error : null,
          errorCode: null,
          attempts,
          evidence: null,
          extendedSeconds: 0,
        },
      });
    }
    return outcome;
  };
}
