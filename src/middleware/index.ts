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
