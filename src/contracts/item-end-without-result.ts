import type { FinishBatchItemInput } from './batch-workflows';

/**
 * The end of an item whose workflow did not write it (it failed, was cancelled before it started,
 * or was terminated): no result, model or usage. `attemptsFromRow` takes the attempts from the
 * item's row, so an item that ran gets its `subagent.end`; without it the end counts none.
 */
export function itemEndWithoutResult(
  key: string,
  status: 'failed' | 'cancelled',
  error: string | null,
  completedAt: string,
  attemptsFromRow = false,
): Omit<FinishBatchItemInput, 'runtime'> {
  return {
    key,
    status,
    resultRef: null,
    resultSha256: null,
    stopReason: null,
    error,
    attempts: 0,
    ...(attemptsFromRow ? { attemptsFromRow } : {}),
    modelName: null,
    usage: null,
    startedAt: null,
    completedAt,
  };
}
