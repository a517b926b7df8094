/**
 * `models`: LangChain chat models built from config (openai, anthropic, ollama) and the `scripted`
 * model that replays scenario files (shared/docs/SCRIPTED_MODEL.md).
 */
export {
  createChatModel,
  findModelConfig,
  modelDisplayName,
  DEFAULT_OLLAMA_BASE_URL,
  PLACEHOLDER_API_KEY,
} from './chat-model-factory';
export type { CreateChatModelOptions } from './chat-model-factory';
export { ScriptedChatModel, SCRIPT_EXHAUSTED_TEXT } from './scripted-chat-model';
export type { ModelRole, ScriptedChatModelFields } from './scripted-chat-model';
export {
  ScenarioSchema,
  ScenarioTurnSchema,
  ScenarioToolCallSchema,
  ScenarioUsageSchema,
  SubagentRuleSchema,
  loadScenario,
  loadScenarioCached,
  parseScenario,
  ruleMatches,
  selectSubagentTurns,
} from './scenario';
export type { Scenario, ScenarioTurn, ScenarioToolCall, ScenarioUsage, SubagentRule } from './scenario';
export { checkProviderRequest, ProviderRequestRule } from './provider-request-rules';
export type { ProviderRequestViolation, RequestMessage, RequestToolCall } from './provider-request-rules';
export { turnAt } from './turn-cursor';
export type { Repeatable, TurnLookup } from './turn-cursor';
export { abortableDelay, abortReason } from './abortable-delay';
export {
  ModelError,
  ModelErrorCode,
  ScenarioInvalidError,
  ModelNotConfiguredError,
  MissingApiKeyError,
  ScriptedProviderError,
  isModelError,
  isScenarioInvalidError,
  isModelNotConfiguredError,
  isMissingApiKeyError,
  isScriptedProviderError,
} from './errors';
