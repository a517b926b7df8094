import { createMiddleware } from 'langchain';
import { z } from 'zod';
import { inModelCallSpan } from './model-call-span';
import { inToolCallSpan } from './tool-call-span';

/** Name the agent spans middleware registers under. */
export const AGENT_SPANS_MIDDLEWARE_NAME = 'AgentSpansMiddleware';

const id = z.string().min(1);

const OptionsSchema = z.strictObject({
  /** The ids of the work the agent does (see `deerflowIdsOf`). */
  ids: z.strictObject({ thread_id: id.optional(), run_id: id.optional(), task_id: id.optional(), call_id: id.optional(), batch_id: id.optional() }),
  /** Configured model name the agent calls. */
  model: id,
  /** Agent (subagent type) name. */
  agent: id,
});

/** Options of {@link agentSpansMiddleware}. */
export type AgentSpansMiddlewareOptions = z.input<typeof OptionsSchema>;

/**
 * One span per model call and per tool call of an agent, carrying the work's ids. Placed innermost
 * in the chain, so each provider call (every retry included) and each real tool execution gets its
 * own span, timed without the other middleware's work. Spans only: requests and results pass
 * through untouched, and a thrown tool error is rethrown for the tool error handler outside.
 * @throws ZodError for invalid options
 */
export function agentSpansMiddleware(options: AgentSpansMiddlewareOptions) {
  const { ids, model, agent } = OptionsSchema.parse(options);
  return createMiddleware({
    name: AGENT_SPANS_MIDDLEWARE_NAME,
    wrapModelCall: (request, handler) => inModelCallSpan({ ids, model, agent }, () => handler(request)),
    wrapToolCall: (request, handler) => inToolCallSpan({ ids, agent, tool: request.toolCall.name, toolCallId: request.toolCall.id }, () => handler(request)),
  });
}
