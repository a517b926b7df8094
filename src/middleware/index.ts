/**
 * Pure decision functions behind the agent middleware: no Node APIs, no I/O, no clock (time is
 * passed in), so workflow code may import them as well as activities.
 */
export {
  SUBAGENT_METADATA_KEYS,
  SHA256_HEX_PATTERN,
  readSubagentResultMetadata,
} from './subagent-result-metadata';
export type { SubagentResultMetadata } from './subagent-result-metadata';
export {
  DELEGATION_LEDGER_MAX_ENTRIES,
  DESCRIPTION_CAP,
  RESULT_BRIEF_CAP,
  STATUS_ONLY_BRIEFS,
  DELEGATION_STATUSES,
  DelegationStatusSchema,
  DelegationEntrySchema,
  isTerminalDelegationStatus,
  extractDelegations,
  mergeDelegations,
  tagRunId,
  countRunDelegations,
} from './delegation-ledger';
export type { DelegationStatus, DelegationEntry, Sha256, LedgerToolCall, LedgerMessage } from './delegation-ledger';
export {
  LEDGER_RENDER_CHAR_BUDGET,
  LEDGER_ENTRY_RESULT_RENDER_CAP,
  DELEGATION_LEDGER_HEADING,
  delegationGuidance,
  renderDelegationLedger,
} from './delegation-ledger-render';
export {
  SUMMARY_RENDER_CHAR_BUDGET,
  SKILL_DESCRIPTION_MAX_CHARS,
  DURABLE_CONTEXT_DATA_KEY,
  DURABLE_CONTEXT_AUTHORITY_CONTRACT,
  renderSkillContext,
  renderDurableContextData,
  durableContextMessages,
} from './durable-context';
export type {
  ActiveSkill,
  DurableContextInput,
  DurableContextContractMessage,
  DurableContextDataMessage,
} from './durable-context';
export {
  USER_INPUT_BEGIN,
  USER_INPUT_END,
  NEUTRALIZED_USER_INPUT_BEGIN,
  NEUTRALIZED_USER_INPUT_END,
  ORIGINAL_USER_CONTENT_KEY,
  UNTRUSTED_TAG_DENYLIST,
  neutralizeUntrustedTags,
  neutralizeToolResultText,
  frameUntrustedText,
  isGenuineUserMessage,
  lastGenuineUserMessageIndex,
  sanitizeUserContent,
} from './input-sanitization';
export type { SanitizableMessage, SanitizedUserContent } from './input-sanitization';
export { neutralizeToolResultContent, neutralizeToolMessages } from './tool-result-sanitization';
export type { ToolResultMessage, NeutralizedToolMessageFields } from './tool-result-sanitization';
export {
  RETRYABLE_STATUSES,
  LlmErrorReason,
  DEFAULT_LLM_RETRY_POLICY,
  BURST_RATE_MAX_ATTEMPTS,
  classifyLlmError,
  maxAttemptsFor,
  retryDelayMs,
  llmFallbackText,
  llmErrorFallback,
} from './llm-error-handling';
export type { LlmRetryPolicy, LlmErrorClassification, LlmErrorFallbackKwargs, LlmErrorFallbackSpec } from './llm-error-handling';
export { DYNAMIC_CONTEXT_REMINDER_KEY, flattenContent, coalesceSystemParts, planSystemCoalescing } from './system-message-coalescing';
export type { SystemPart, CoalescedSystemMessage, CoalescibleMessage, SystemCoalescingPlan } from './system-message-coalescing';
export {
  GUARD_MAX_TRACKED_RUNS,
  BUDGET_WARNING_NAME,
  TOKEN_CAPPED,
  decideTokenBudget,
  tokenBudgetExceededMessage,
  tokenBudgetWarningMessage,
} from './token-budget';
export type { TokenBudgetLimits, BudgetAction } from './token-budget';
export {
  MAX_PENDING_WARNINGS_PER_RUN,
  LOOP_WARNING_NAME,
  LOOP_CAPPED,
  hashToolCalls,
  stableToolKey,
  observeToolCalls,
  repeatedCallsStopMessage,
  toolFrequencyStopMessage,
  REPEATED_CALLS_WARNING,
  toolFrequencyWarning,
} from './loop-detection';
export type { LoopLimits, LoopAction } from './loop-detection';
export { activeSkills } from './active-skills';
export {
  SKILL_POLICY_ALWAYS_ALLOWED_TOOLS,
  UNRESTRICTED_SKILL_TOOL_POLICY,
  skillToolPolicy,
  isToolAllowedBySkills,
  skillToolRefusal,
} from './skill-tool-policy';
export type { SkillToolRule, SkillToolPolicy } from './skill-tool-policy';
export { SUMMARY_INSTRUCTIONS, approximateTokens, shouldCompact, compactionCut, renderForSummary } from './compaction';
export type { CompactableMessage, CompactionTrigger } from './compaction';
export { requestOrigins, planLeadCompaction } from './lead-compaction-plan';
export type { LeadCompactionOptions, LeadCompactionPlan } from './lead-compaction-plan';
export { recursionLimitForTurns } from './turn-recursion-limit';
export type { MiddlewareHooks } from './turn-recursion-limit';
export { DANGLING_REPAIR_KEY, DANGLING_TOOL_CALL_TEXT, repairDanglingToolCalls } from './dangling-tool-calls';
export type { DanglingRepairMessage, DanglingRepairToolCall, DanglingToolMessageFields } from './dangling-tool-calls';
