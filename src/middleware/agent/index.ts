/**
 * LangChain agent middleware (createMiddleware): effects and per-run state live here; the decisions
 * they apply are the pure functions of `src/middleware`. Activities only: never import this from
 * workflow code (it loads langchain).
 */
export { buildSubagentMiddleware, subagentInputMessages, stopReasonGuards, consumeStopReason, resetGuards } from './subagent-chain';
export type { SubagentChainOptions, StopReasonGuard } from './subagent-chain';
export { inputSanitizationMiddleware, INPUT_SANITIZATION_MIDDLEWARE_NAME } from './input-sanitization-middleware';
export { toolResultSanitizationMiddleware, TOOL_RESULT_SANITIZATION_MIDDLEWARE_NAME } from './tool-result-sanitization-middleware';
export type { ToolResultSanitizationMiddlewareOptions } from './tool-result-sanitization-middleware';
export { callWithLlmRetries, llmErrorHandlingMiddleware, LLM_ERROR_HANDLING_MIDDLEWARE_NAME } from './llm-error-handling-middleware';
export type { LlmErrorHandlingMiddlewareOptions, LlmRetryOptions, LlmRetrySleep } from './llm-error-handling-middleware';
export { toolErrorHandlingMiddleware, TOOL_ERROR_HANDLING_MIDDLEWARE_NAME } from './tool-error-handling-middleware';
export { loopDetectionMiddleware, LOOP_DETECTION_MIDDLEWARE_NAME } from './loop-detection-middleware';
export {
  tokenBudgetMiddleware,
  TOKEN_BUDGET_MIDDLEWARE_NAME,
  defaultSubagentTokenBudget,
  resolveSubagentTokenBudget,
} from './token-budget-middleware';
export { durableContextMiddleware, DURABLE_CONTEXT_MIDDLEWARE_NAME, SkillContextStateSchema } from './durable-context-middleware';
export { skillToolPolicyMiddleware, SKILL_TOOL_POLICY_MIDDLEWARE_NAME } from './skill-tool-policy-middleware';
export type { SkillToolPolicyMiddlewareOptions } from './skill-tool-policy-middleware';
export { deferredToolsMiddleware, DEFERRED_TOOLS_MIDDLEWARE_NAME, PromotedToolsStateSchema } from './deferred-tools-middleware';
export type { DeferredToolsMiddlewareOptions } from './deferred-tools-middleware';
export { summarizationMiddleware, SUMMARIZATION_MIDDLEWARE_NAME, SummaryStateSchema } from './summarization-middleware';
export type { SummarizationMiddlewareOptions } from './summarization-middleware';
export { dateContextMiddleware, DATE_CONTEXT_MIDDLEWARE_NAME } from './date-context-middleware';
export { systemMessageCoalescingMiddleware, SYSTEM_MESSAGE_COALESCING_MIDDLEWARE_NAME } from './system-message-coalescing-middleware';
