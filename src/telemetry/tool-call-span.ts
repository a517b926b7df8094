import { SpanStatusCode } from '@opentelemetry/api';
import { ToolMessage } from '@langchain/core/messages';
import { idSpanAttributes, type DeerflowIds } from './deerflow-ids';
import { inSpan } from './in-span';
import { GEN_AI_OPERATIONS, SPAN_ATTRIBUTES, toolCallSpanName } from './span-attributes';

/** Whose tool call a span is: the work's ids, the tool, the provider's call id (may be empty) and the calling agent. */
export interface ToolCallSpanTarget {
  readonly ids: DeerflowIds;
  readonly tool: string;
  readonly toolCallId?: string;
  readonly agent?: string;
}

/**
 * Runs one tool call inside an `execute_tool <tool>` span carrying the work's ids. A tool that
 * answers with an error `ToolMessage` (instead of throwing) marks the span failed too.
 */
export function inToolCallSpan<T>(target: ToolCallSpanTarget, call: () => T | PromiseLike<T>): Promise<T> {
  const attributes = {
    ...idSpanAttributes(target.ids),
    [SPAN_ATTRIBUTES.operation]: GEN_AI_OPERATIONS.executeTool,
    [SPAN_ATTRIBUTES.toolName]: target.tool,
    ...(target.toolCallId ? { [SPAN_ATTRIBUTES.toolCallId]: target.toolCallId } : {}),
    ...(target.agent === undefined ? {} : { [SPAN_ATTRIBUTES.agent]: target.agent }),
  };
  return inSpan(toolCallSpanName(target.tool), attributes, async (span) => {
    const result = await call();
    if (ToolMessage.isInstance(result) && result.status === 'error') span.setStatus({ code: SpanStatusCode.ERROR });
    return result;
  });
}
