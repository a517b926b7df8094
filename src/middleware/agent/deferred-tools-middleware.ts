import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createMiddleware } from 'langchain';
import { z } from 'zod';

import { deferredToolRefusal, promoteTools } from '../../contracts/deferred-tools';
import { createToolSearchTool, promotedToolsOf } from '../../tools/tool-search-tool';
import { requestToolName } from './request-tool-name';

/** Name the deferred tools middleware registers under. */
export const DEFERRED_TOOLS_MIDDLEWARE_NAME = 'DeferredToolsMiddleware';

const OptionsSchema = z
  .object({
    deferred: z.array(z.object({ name: z.string().min(1), description: z.string(), inputSchema: z.record(z.string(), z.unknown()) })).min(1),
    maxResults: z.number().int().min(1),
    recordPromotions: z.boolean().default(true),
  })
  .strict();

/** Options of {@link deferredToolsMiddleware}. */
export type DeferredToolsMiddlewareOptions = z.input<typeof OptionsSchema>;

/** `promoted_tools`: the deferred tools `tool_search` promoted in this task, in promotion order. */
export const PromotedToolsStateSchema = z.object({ promoted_tools: z.array(z.string()).default([]) });

/**
 * Deferred tools for a subagent (`tool_search.enabled`): the agent registers every tool (so a
 * promoted one can run), but each model request carries only the tools that are not deferred plus
 * those `tool_search` (this middleware's tool) promoted; a call to a deferred tool not promoted yet
 * is answered with an error ToolMessage instead of running, since the model never saw its schema.
 *
 * A promotion travels in the `tool_search` tool message and lasts for the rest of the task; each
 * task starts with a fresh state, so nothing carries over to the next one. With
 * `recordPromotions` (when summarization is on), `beforeModel` records it in state
 * (`promoted_tools`), so it survives history compaction; without, every request and call reads the
 * promotions from the messages, where they all stay: no state keys (LangChain compiles a zod parser
 * of a wrap hook's state schema for every call) and no `beforeModel` graph step. Register it before
 * the summarization middleware (whose `beforeModel` may drop the message) and inside the tool error
 * handler and the skill tool policy: a promoted tool still passes the active skills' policy.
 * @throws ZodError for unknown or ill-typed options (and for an empty `deferred`)
 */
export function deferredToolsMiddleware(options: DeferredToolsMiddlewareOptions) {
  const { deferred, maxResults, recordPromotions } = OptionsSchema.parse(options);
  const names = new Set(deferred.map((tool) => tool.name));
  const promotedIn = (messages: readonly BaseMessage[]) => messages.flatMap(promotedToolsOf);
  // The promotions a request or call sees: those recorded before it, or those in its messages.
  const promotedOf = (state: { promoted_tools?: string[]; messages: BaseMessage[] }): readonly string[] =>
    recordPromotions ? (state.promoted_tools ?? []) : promoteTools([], promotedIn(state.messages));
  return createMiddleware({
    name: DEFERRED_TOOLS_MIDDLEWARE_NAME,
    ...(recordPromotions
      ? {
          stateSchema: PromotedToolsStateSchema,
          beforeModel: (state: z.infer<typeof PromotedToolsStateSchema> & { messages: BaseMessage[] }) => {
            const promoted = promoteTools(state.promoted_tools, promotedIn(state.messages));
            return promoted.length > state.promoted_tools.length ? { promoted_tools: promoted } : undefined;
          },
        }
      : {}),
    tools: [createToolSearchTool(deferred, maxResults)],
    wrapModelCall: (request, handler) => {
      const promoted = new Set(promotedOf(request.state));
      const tools = request.tools.filter((tool) => {
        const name = requestToolName(tool);
        return name === null || !names.has(name) || promoted.has(name);
      });
      return handler(tools.length === request.tools.length ? request : { ...request, tools });
    },
    wrapToolCall: (request, handler) => {
      const name = request.toolCall.name;
      // Promotions before this response only: a `tool_search` in the same response promotes from the
      // next one (its result is not in the messages a sibling call sees, nor recorded yet).
      if (!names.has(name) || promotedOf(request.state).includes(name)) return handler(request);
      return new ToolMessage({ content: `Error: ${deferredToolRefusal(name)}`, tool_call_id: request.toolCall.id ?? '', name, status: 'error' });
    },
  });
}
