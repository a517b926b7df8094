import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/** Custom search attributes: registered on the dev server at start, upserted by workflows. */
export const SA_THREAD_ID = defineSearchAttributeKey('DeerflowThreadId', SearchAttributeType.KEYWORD);
export const SA_USER_ID = defineSearchAttributeKey('DeerflowUserId', SearchAttributeType.KEYWORD);
export const SA_AGENT = defineSearchAttributeKey('DeerflowAgent', SearchAttributeType.KEYWORD);
export const SA_RUN_STATUS = defineSearchAttributeKey('DeerflowRunStatus', SearchAttributeType.KEYWORD);
export const SA_STOP_REASONS = defineSearchAttributeKey('DeerflowStopReasons', SearchAttributeType.KEYWORD_LIST);
export const SA_SUBAGENTS = defineSearchAttributeKey('DeerflowSubagents', SearchAttributeType.KEYWORD_LIST);

/** Every custom search attribute with its type, for registration. */
export const CUSTOM_SEARCH_ATTRIBUTES = [SA_THREAD_ID, SA_USER_ID, SA_AGENT, SA_RUN_STATUS, SA_STOP_REASONS, SA_SUBAGENTS] as const;
