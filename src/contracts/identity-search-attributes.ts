import type { SearchAttributePair, TypedSearchAttributes } from '@temporalio/common';
import type { BatchWorkflowInput } from './batch-workflows';
import { SA_AGENT, SA_BATCH_ID, SA_SUBAGENTS, SA_THREAD_ID, SA_USER_ID } from './search-attributes';
import type { LeadRunInput } from './workflow-io';

/**
 * The search attributes that find a lead run by thread, user and lead agent. Starters set them at
 * start (visible at once) and the workflow upserts the ones a starter left out, so a run started
 * by any Temporal client can be found the same way.
 */
export function leadRunSearchAttributes(input: Pick<LeadRunInput, 'threadId' | 'userId' | 'agentName'>): SearchAttributePair[] {
  return [
    { key: SA_THREAD_ID, value: input.threadId },
    { key: SA_USER_ID, value: input.userId },
    { key: SA_AGENT, value: input.agentName },
  ];
}

/** The search attributes that find a batch by id, owner and subagent (see {@link leadRunSearchAttributes}). */
export function batchSearchAttributes(input: Pick<BatchWorkflowInput, 'runtime'>): SearchAttributePair[] {
  return [
    { key: SA_BATCH_ID, value: input.runtime.batchId },
    { key: SA_USER_ID, value: input.runtime.ownerId },
    { key: SA_SUBAGENTS, value: [input.runtime.subagent.name] },
  ];
}

/**
 * The pairs of `wanted` whose key has no value in `present`. A value the starter set is kept even
 * when it differs: the starter may know better (and overwriting would hide what it chose).
 */
export function missingSearchAttributes(present: Pick<TypedSearchAttributes, 'get'>, wanted: readonly SearchAttributePair[]): SearchAttributePair[] {
  return wanted.filter((pair) => present.get(pair.key) === undefined);
}
