import { createMiddleware, type ModelRequest } from 'langchain';
import { z } from 'zod';

import { isCancellationError } from '../llm-error-handling';

/** Options of a fail-open request rewrite (the sanitization middlewares). */
export const FailOpenOptionsSchema = z
  .object({
    /** Told about an unexpected failure before the request goes out unchanged (fail-open). */
    onError: z.custom<(error: unknown) => void>((v) => typeof v === 'function').optional(),
  })
  .strict();

/**
 * A middleware that rewrites each model request (request-only, state untouched) and fails open: an
 * unexpected error in `rewrite` is reported to `onError` and the request goes out unchanged, so a
 * sanitizer bug cannot stop a run; cancellation still propagates.
 * @throws ZodError for unknown or ill-typed options
 */
export function failOpenRequestRewrite(
  name: string,
  rewrite: <R extends Pick<ModelRequest, 'messages'>>(request: R) => R,
  options: z.input<typeof FailOpenOptionsSchema>,
) {
  const { onError } = FailOpenOptionsSchema.parse(options);
  return createMiddleware({
    name,
    wrapModelCall: async (request, handler) => {
      let next = request;
      try {
        next = rewrite(request);
      } catch (err) {
        if (isCancellationError(err)) throw err;
        onError?.(err);
      }
      return handler(next);
    },
  });
}
