export { BUILTIN_SUBAGENTS, GENERAL_PURPOSE, BASH } from './builtin-subagents';
export { INHERIT_MODEL } from './subagent-definition';
export type { SubagentDefinition } from './subagent-definition';
export {
  resolveSubagent,
  subagentNames,
  availableSubagentNames,
  resolveCatalog,
  resolveSubagentModelName,
} from './resolve-subagents';
