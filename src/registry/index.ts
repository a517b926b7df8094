export { BUILTIN_SUBAGENTS, GENERAL_PURPOSE, BASH } from './builtin-subagents';
export { INHERIT_MODEL } from './subagent-definition';
export type { SubagentDefinition } from './subagent-definition';
export {
  resolveSubagent,
  subagentNames,
  availableSubagentNames,
  resolveCatalog,
  resolveSubagentModelName,
  managedStatus,
} from './resolve-subagents';
export type { ManagedStatus, ManagedSubagents } from './resolve-subagents';
export { resolveLeadAgent, leadAgentNames } from './resolve-lead-agent';
export { resolveLeadTools } from './resolve-lead-tools';
export { subagentHasTool } from './subagent-tool-policy';
export { subagentDeferredTools } from './subagent-deferred-tools';
export { NO_MANAGED_DEFINITIONS, readManagedDefinitions } from './managed-definitions';
export type { ManagedDefinitions } from './managed-definitions';
export type { LeadAgentDefinition } from './resolve-lead-agent';
export { buildBatch, BatchRequestSchema, BatchRequestItemSchema } from './build-batch';
export type { BatchRequest, BuiltBatch } from './build-batch';
export { renderLeadSystemPrompt, leadTaskToolOptions, listLeadSubagents } from './render-lead-prompt';
export type { LeadPromptInput, LeadTaskToolOptions } from './render-lead-prompt';
