/**
 * Names of the spans deerflow makes and of their attributes. Model and tool spans follow the
 * OpenTelemetry GenAI conventions (`chat <model>`, `execute_tool <tool>`); the `deerflow.*` ids say
 * which thread, run and task (or lead tool call) a span belongs to.
 */
export const SPAN_ATTRIBUTES = {
  threadId: 'deerflow.thread_id',
  runId: 'deerflow.run_id',
  taskId: 'deerflow.task_id',
  callId: 'deerflow.call_id',
  batchId: 'deerflow.batch_id',
  turn: 'deerflow.turn',
  agent: 'deerflow.agent',
  operation: 'gen_ai.operation.name',
  model: 'gen_ai.request.model',
  inputTokens: 'gen_ai.usage.input_tokens',
  outputTokens: 'gen_ai.usage.output_tokens',
  toolName: 'gen_ai.tool.name',
  toolCallId: 'gen_ai.tool.call.id',
} as const;

/** `gen_ai.operation.name` values. */
export const GEN_AI_OPERATIONS = { chat: 'chat', executeTool: 'execute_tool' } as const;

/** Name of the span around one chat-model call. */
export function modelCallSpanName(model: string): string {
  return `${GEN_AI_OPERATIONS.chat} ${model}`;
}

/** Name of the span around one tool call. */
export function toolCallSpanName(tool: string): string {
  return `${GEN_AI_OPERATIONS.executeTool} ${tool}`;
}
