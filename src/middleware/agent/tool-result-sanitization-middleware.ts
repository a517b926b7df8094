import { ToolMessage } from '@langchain/core/messages';
import type { ModelRequest } from 'langchain';
import type { z } from 'zod';

import { failOpenRequestRewrite, type FailOpenOptionsSchema } from './fail-open-request-rewrite';
import { neutralizeToolMessages } from '../tool-result-sanitization';

/** Name the tool result sanitization middleware registers under. */
export const TOOL_RESULT_SANITIZATION_MIDDLEWARE_NAME = 'ToolResultSanitizationMiddleware';

/** Options of {@link toolResultSanitizationMiddleware}. */
export type ToolResultSanitizationMiddlewareOptions = z.input<typeof FailOpenOptionsSchema>;

/** The request with every tool message neutralized, or the same request when nothing changes. */
function sanitizeRequest<R extends Pick<ModelRequest, 'messages'>>(request: R): R {
  const messages = neutralizeToolMessages(request.messages, (fields) => new ToolMessage(fields));
  if (messages.every((m, i) => m === request.messages[i])) return request;
  return { ...request, messages };
}

/**
 * Tool results are data: on every model request, the text of each tool message
 * (tool output, file contents, fetched pages) has its framework tags escaped and forged
 * user-input markers neutralized, as user input has. Request-only: the agent state keeps what the
 * tools returned, so each request neutralizes the raw results afresh. Register it right after the
 * input sanitization middleware, before anything that adds framework blocks of its own.
 * An unexpected failure sends the request unchanged (fail-open, like input sanitization, so a
 * sanitizer bug cannot stop a run); cancellation still propagates.
 * @throws ZodError for unknown or ill-typed options
 */
export function toolResultSanitizationMiddleware(options: ToolResultSanitizationMiddlewareOptions = {}) {
  return failOpenRequestRewrite(TOOL_RESULT_SANITIZATION_MIDDLEWARE_NAME, sanitizeRequest, options);
}
