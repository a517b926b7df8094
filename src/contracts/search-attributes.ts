import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Custom search attributes: registered on the dev server at start, upserted by workflows. */
export const SA_THREAD_ID = defineSearchAttributeKey('DeerflowThreadId', SearchAttributeType.KEYWORD);
export const SA_USER_ID = defineSearchAttributeKey('DeerflowUserId', SearchAttributeType.KEYWORD);
export const SA_AGENT = defineSearchAttributeKey('DeerflowAgent', SearchAttributeType.KEYWORD);
export const SA_RUN_STATUS = defineSearchAttributeKey('DeerflowRunStatus', SearchAttributeType.KEYWORD);
export const SA_STOP_REASONS = defineSearchAttributeKey('DeerflowStopReasons', SearchAttributeType.KEYWORD_LIST);
export const SA_SUBAGENTS = defineSearchAttributeKey('DeerflowSubagents', SearchAttributeType.KEYWORD_LIST);
/** The batch a batch or batch-item workflow belongs to: lists a batch's items in Temporal Web. */
export const SA_BATCH_ID = defineSearchAttributeKey('DeerflowBatchId', SearchAttributeType.KEYWORD);
/** Items of a batch that reached a terminal status (batch progress in Temporal Web). */
export const SA_ITEMS_DONE = defineSearchAttributeKey('DeerflowItemsDone', SearchAttributeType.INT);
/** Items of a batch. */
export const SA_ITEMS_TOTAL = defineSearchAttributeKey('DeerflowItemsTotal', SearchAttributeType.INT);

/** Every custom search attribute with its type, for registration. */
export const CUSTOM_SEARCH_ATTRIBUTES = [
  SA_THREAD_ID,
  SA_USER_ID,
  SA_AGENT,
  SA_RUN_STATUS,
  SA_STOP_REASONS,
  SA_SUBAGENTS,
  SA_BATCH_ID,
  SA_ITEMS_DONE,
  SA_ITEMS_TOTAL,
] as const;
