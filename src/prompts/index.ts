export { escapeHtml } from './escape-html';
export {
  clampLimits,
  ROUTINE_OPS_SENTENCE,
  delegationCheckBullet,
  benefitBasedDelegationBullet,
} from './delegation-policy';
export { buildSubagentRoutingSection } from './subagent-routing-section';
export type { ListedSubagent, RoutingSectionOptions } from './subagent-routing-section';
export { buildTaskToolDescription, ACCEPTANCE_CRITERIA_DESCRIPTION } from './task-tool-description';
export { buildBatchTaskToolDescription } from './batch-task-tool-description';
export { buildDeferredToolsSection } from './deferred-tools-section';
export type { ListedDeferredTool } from './deferred-tools-section';
export { taskToolSpec } from './task-tool-spec';
export { batchTaskToolSpec } from './batch-task-tool-spec';
export { askClarificationToolSpec } from './ask-clarification-tool-spec';
export { toolParameters } from './tool-parameters';
export type { FunctionToolSpec } from './function-tool-spec';
export { formatPromptDate } from './prompt-date';
export { buildLeadSystemPrompt } from './lead-system-prompt';
export type { LeadPromptOptions } from './lead-system-prompt';
export {
  buildReportContractSection,
  buildAcceptanceCriteriaSystemNote,
  renderSubagentSystemPrompt,
} from './report-contract';
export type { ReportContractOptions } from './report-contract';
export { receiptId, formatReceiptCitation } from './receipt-citation';
export {
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_SYSTEM_PROMPT,
  BASH_DESCRIPTION,
  BASH_SYSTEM_PROMPT,
} from './subagent-role-prompts';
