import { HumanMessage } from '@langchain/core/messages';
import type { ModelRequest } from 'langchain';
import type { z } from 'zod';

import { failOpenRequestRewrite, type FailOpenOptionsSchema } from './fail-open-request-rewrite';
import { lastGenuineUserMessageIndex, sanitizeUserContent } from '../input-sanitization';

/** Name the input sanitization middleware registers under. */
export const INPUT_SANITIZATION_MIDDLEWARE_NAME = 'InputSanitizationMiddleware';

/** Options of {@link inputSanitizationMiddleware}. */
export type InputSanitizationMiddlewareOptions = z.input<typeof FailOpenOptionsSchema>;

/**
 * The request with its last genuine user message framed as untrusted input, or the same request
 * when nothing changes. Never touches state.
 */
function sanitizeRequest<R extends Pick<ModelRequest, 'messages'>>(request: R): R {
  const at = lastGenuineUserMessageIndex(request.messages);
  const target = request.messages[at];
  if (target === undefined) return request;
  const sanitized = sanitizeUserContent(target);
  if (sanitized === null) return request;
  const messages = [...request.messages];
  messages[at] = new HumanMessage({
    // The content keeps LangChain's block shapes: only text blocks were replaced.
    content: sanitized.content as HumanMessage['content'],
    additional_kwargs: sanitized.additional_kwargs,
    ...(target.id === undefined ? {} : { id: target.id }),
    ...(target.name === undefined ? {} : { name: target.name }),
  });
  return { ...request, messages };
}

/**
 * Frames the last genuine user message of every model request as untrusted input (SPEC §6.9):
 * denylisted tags escaped, forged boundary markers neutralized, text wrapped between
 * `--- BEGIN USER INPUT ---` and `--- END USER INPUT ---`. Request-only; register it outermost.
 * An unexpected failure sends the original request (fail-open); cancellation still propagates.
 * @throws ZodError for unknown or ill-typed options
 */
export function inputSanitizationMiddleware(options: InputSanitizationMiddlewareOptions = {}) {
  return failOpenRequestRewrite(INPUT_SANITIZATION_MIDDLEWARE_NAME, sanitizeRequest, options);
}
