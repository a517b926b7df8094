import { SystemMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

import { planSystemCoalescing } from '../system-message-coalescing';

/** Name the system message coalescing middleware registers under. */
export const SYSTEM_MESSAGE_COALESCING_MIDDLEWARE_NAME = 'SystemMessageCoalescingMiddleware';

const OptionsSchema = z.object({}).strict();

/** Options of {@link systemMessageCoalescingMiddleware} (none yet). */
export type SystemMessageCoalescingMiddlewareOptions = z.input<typeof OptionsSchema>;

/**
 * Folds the request's system message and every SystemMessage in its conversation into the single
 * leading system message strict providers require (SPEC §6.4): only the newest dynamic-context
 * reminder is kept, contents are joined by a blank line, the first part's id and the merged kwargs
 * are kept. A request without SystemMessages in `messages` is passed on as the SAME object.
 * Request-only (state keeps its messages). Register it LAST so it sees what every other
 * middleware added.
 *
 * Only `systemMessage` is replaced, never `systemPrompt`: LangChain rejects a request that
 * changes both.
 * @throws ZodError for unknown options
 */
export function systemMessageCoalescingMiddleware(options: SystemMessageCoalescingMiddlewareOptions = {}) {
  OptionsSchema.parse(options);
  return createMiddleware({
    name: SYSTEM_MESSAGE_COALESCING_MIDDLEWARE_NAME,
    wrapModelCall: async (request, handler) => {
      const plan = planSystemCoalescing(request.systemMessage, request.messages);
      if (plan === null) return handler(request);
      const { content, id, additional_kwargs } = plan.systemMessage;
      return handler({
        ...request,
        systemMessage: new SystemMessage({ content, additional_kwargs, ...(id === undefined ? {} : { id }) }),
        messages: plan.messages,
      });
    },
  });
}
