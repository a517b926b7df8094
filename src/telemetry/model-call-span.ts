import { AIMessage } from '@langchain/core/messages';
import { idSpanAttributes, type DeerflowIds } from './deerflow-ids';
import { inSpan } from './in-span';
import { GEN_AI_OPERATIONS, modelCallSpanName, SPAN_ATTRIBUTES } from './span-attributes';

/** Whose model call a span is: the work's ids, the configured model name and, for the lead, the turn. */
export interface ModelCallSpanTarget {
  readonly ids: DeerflowIds;
  readonly model: string;
  readonly agent?: string;
  readonly turn?: number;
}

/**
 * Runs one chat-model call inside a `chat <model>` span carrying the work's ids and, when the
 * provider reported it, the call's token usage.
 */
export function inModelCallSpan<T>(target: ModelCallSpanTarget, call: () => T | PromiseLike<T>): Promise<T> {
  const attributes = {
    ...idSpanAttributes(target.ids),
    [SPAN_ATTRIBUTES.operation]: GEN_AI_OPERATIONS.chat,
    [SPAN_ATTRIBUTES.model]: target.model,
    ...(target.agent === undefined ? {} : { [SPAN_ATTRIBUTES.agent]: target.agent }),
    ...(target.turn === undefined ? {} : { [SPAN_ATTRIBUTES.turn]: target.turn }),
  };
  return inSpan(modelCallSpanName(target.model), attributes, async (span) => {
    const response = await call();
    const usage = AIMessage.isInstance(response) ? response.usage_metadata : undefined;
    if (usage !== undefined) {
      span.setAttributes({ [SPAN_ATTRIBUTES.inputTokens]: usage.input_tokens, [SPAN_ATTRIBUTES.outputTokens]: usage.output_tokens });
    }
    return response;
  });
}
