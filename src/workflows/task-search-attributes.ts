import type { SearchAttributePair, TypedSearchAttributes } from '@temporalio/common';
import type { TaskState } from '../contracts';
import { SA_STOP_REASONS, SA_SUBAGENTS } from '../contracts/search-attributes';

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}

/**
 * What a lead run's tasks make searchable (pure): the subagents it used and their stop reasons,
 * after them the run's own stop reason when it has one.
 */
export function taskSearchAttributes(tasks: readonly TaskState[], runStopReason: string | null = null): SearchAttributePair[] {
  return [
    { key: SA_SUBAGENTS, value: unique(tasks.flatMap((t) => (t.subagent ? [t.subagent] : []))) },
    { key: SA_STOP_REASONS, value: stopReasons(tasks, runStopReason) },
  ];
}

/** The tasks' stop reasons, each once in the order they first came, then the run's own (pure). */
export function stopReasons(tasks: readonly TaskState[], runStopReason: string | null): string[] {
  return unique([...tasks.flatMap((t) => (t.stopReason ? [t.stopReason] : [])), ...(runStopReason ? [runStopReason] : [])]);
}

type AttributeValue = SearchAttributePair['value'] | undefined;

/** An unset attribute and an empty list read the same (upserting `[]` unsets a list); a date is always new. */
function sameValue(a: AttributeValue, b: AttributeValue): boolean {
  const listA = Array.isArray(a) ? a : a === undefined ? [] : null;
  const listB = Array.isArray(b) ? b : b === undefined ? [] : null;
  if (listA !== null && listB !== null) return listA.length === listB.length && listA.every((v, i) => v === listB[i]);
  return a === b;
}

/** The pairs of `wanted` whose value differs from the one in `present` (pure): what an upsert would change. */
export function changedSearchAttributes(present: Pick<TypedSearchAttributes, 'get'>, wanted: readonly SearchAttributePair[]): SearchAttributePair[] {
  return wanted.filter((pair) => !sameValue(present.get(pair.key) as AttributeValue, pair.value));
}
