export { escapeHtml } from './escape-html';
export { buildSubagentRoutingSection } from './subagent-routing-section';
export type { ListedSubagent, RoutingSectionOptions } from './subagent-routing-section';
export { buildTaskToolDescription, ACCEPTANCE_CRITERIA_DESCRIPTION } from './task-tool-description';
export { buildLeadSystemPrompt } from './lead-system-prompt';
export type { LeadPromptOptions } from './lead-system-prompt';
export {
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_SYSTEM_PROMPT,
  BASH_DESCRIPTION,
  BASH_SYSTEM_PROMPT,
} from './subagent-role-prompts';
