import { ToolMessage } from '@langchain/core/messages';
import { isGraphBubbleUp } from '@langchain/langgraph';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

import { cutText } from '../context-text';
import { errorDetail, isCancellationError, unwrapMiddlewareError } from '../llm-error-handling';

/** Name the tool error handling middleware registers under. */
export const TOOL_ERROR_HANDLING_MIDDLEWARE_NAME = 'ToolErrorHandlingMiddleware';
/** Longest error detail a tool error message keeps, by default. */
export const TOOL_ERROR_DETAIL_MAX_CHARS = 2000;

const OptionsSchema = z
  .object({
    /** Longest error detail kept in the ToolMessage. @default 2000 */
    maxDetailChars: z.number().int().min(20).default(TOOL_ERROR_DETAIL_MAX_CHARS),
  })
  .strict();

/** Options of {@link toolErrorHandlingMiddleware}. */
export type ToolErrorHandlingMiddlewareOptions = z.input<typeof OptionsSchema>;

/**
 * `Error: <message>` for a thrown tool error, with no stack trace. LangChain's schema-failure
 * error (`ToolInvocationError`) embeds the whole stack in its message, so its inner error's
 * message is used instead. Long details are cut to `maxChars`.
 */
export function toolErrorContent(err: unknown, maxChars: number = TOOL_ERROR_DETAIL_MAX_CHARS): string {
  const root = unwrapMiddlewareError(err);
  const rec = typeof root === 'object' && root !== null ? (root as Record<string, unknown>) : null;
  const inner = rec?.['~brand'] === 'ToolInvocationError' && rec['toolError'] !== undefined ? rec['toolError'] : root;
  const detail = errorDetail(inner);
  return `Error: ${detail.length > maxChars ? `${cutText(detail, maxChars - 3)}...` : detail}`;
}

/**
 * Turns a tool that throws into an error `ToolMessage` (`status: "error"`, named after the tool,
 * content `Error: <message>`), so the model sees the failure and the run continues. Any
 * `wrapToolCall` makes LangChain re-throw tool errors and reject the whole run (FACTS §4), so an
 * agent with wrapping middleware needs this one. Cancellation and LangGraph bubble-up signals
 * are re-thrown. Returned ToolMessages and Commands pass through untouched.
 * @throws ZodError for unknown or out-of-range options
 */
export function toolErrorHandlingMiddleware(options: ToolErrorHandlingMiddlewareOptions = {}) {
  const { maxDetailChars } = OptionsSchema.parse(options);
  return createMiddleware({
    name: TOOL_ERROR_HANDLING_MIDDLEWARE_NAME,
    wrapToolCall: async (request, handler) => {
      try {
        return await handler(request);
      } catch (err) {
        if (request.runtime.signal?.aborted === true || isGraphBubbleUp(err) || isCancellationError(err)) throw err;
        return new ToolMessage({
          content: toolErrorContent(err, maxDetailChars),
          tool_call_id: request.toolCall.id ?? '',
          name: request.toolCall.name,
          status: 'error',
        });
      }
    },
  });
}
