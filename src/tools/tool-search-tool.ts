import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { DynamicStructuredTool, type StructuredToolInterface, type ToolRunnableConfig } from '@langchain/core/tools';
import { z } from 'zod';
import { formatZodIssues, PROMOTED_TOOLS_KWARG, TOOL_SEARCH_QUERY_MAX_CHARS, TOOL_SEARCH_TOOL_NAME, ToolSearchArgsSchema } from '../contracts';
import { toolParameters, type FunctionToolSpec } from '../prompts';
import { rankTools, SELECT_QUERY_PREFIX } from './tool-search-ranking';

/** A deferred tool as `tool_search` finds and returns it (an MCP tool entry fits). */
export interface DeferredTool {
  readonly name: string;
  readonly description: string;
  /** The input JSON schema the model gets once the tool is promoted. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
}

/** What one `tool_search` call answers. */
export interface ToolSearchResult {
  /** The tool message text: the matched tools' schemas as JSON, or why nothing matched. */
  readonly content: string;
  /** The tools the call promotes, best match first. */
  readonly promoted: string[];
}

function parameters(): Record<string, unknown> {
  return toolParameters(TOOL_SEARCH_TOOL_NAME, () =>
    z.object({
      query: z
        .string()
        .describe(`Keywords ("weather forecast"; "+word" must occur), or "${SELECT_QUERY_PREFIX}name1,name2" for exact names. At most ${TOOL_SEARCH_QUERY_MAX_CHARS} characters.`),
    }),
  );
}

function description(maxResults: number): string {
  return (
    'Load deferred tools so you can call them. Deferred tools are listed by name in <available-deferred-tools>: their schemas are not loaded, so calling one fails until you load it. ' +
    `The tools matching the query (at most ${maxResults}) come back with their full schemas, and you can call them from your next response on, for the rest of this run. ` +
    'Load only what you need; prefer one search with exact names over several guesses.'
  );
}

/** `tool_search` as the model sees it (the lead binds the spec; its calls run as lead tool activities). */
export function toolSearchToolSpec(maxResults: number): FunctionToolSpec {
  return { type: 'function', function: { name: TOOL_SEARCH_TOOL_NAME, description: description(maxResults), parameters: parameters() } };
}

/**
 * One `tool_search` call over an agent's deferred tools: the arguments checked against
 * {@link ToolSearchArgsSchema}, the tools ranked by {@link rankTools}, their schemas returned.
 * @throws Error naming the argument when the arguments are invalid
 */
export function searchDeferredTools(args: unknown, catalog: readonly DeferredTool[], maxResults: number): ToolSearchResult {
  const parsed = ToolSearchArgsSchema.safeParse(args);
  if (!parsed.success) {
    throw new Error(`Invalid ${TOOL_SEARCH_TOOL_NAME} arguments: ${formatZodIssues(parsed.error.issues, '(arguments)')}`);
  }
  const { query } = parsed.data;
  const found = rankTools(query, catalog, maxResults);
  if (found.length === 0) {
    // No tag names here: tool results are sanitized, and the model knows where the list is.
    return { content: `No deferred tool matches ${JSON.stringify(query)}. Try other keywords, or ${SELECT_QUERY_PREFIX}<name> with names from the deferred tool list.`, promoted: [] };
  }
  const schemas = found.map((tool) => ({ name: tool.name, description: tool.description, parameters: tool.inputSchema }));
  const count = found.length === 1 ? '1 tool' : `${found.length} tools`;
  return {
    content: `Loaded ${count}; call ${found.length === 1 ? 'it' : 'them'} from your next response on:\n${JSON.stringify(schemas, null, 2)}`,
    promoted: found.map((tool) => tool.name),
  };
}

/** The tool message of a `tool_search` call: its result, with the promoted names in `additional_kwargs`. */
export function toolSearchMessage(result: ToolSearchResult, toolCallId: string): ToolMessage {
  return new ToolMessage({
    content: result.content,
    tool_call_id: toolCallId,
    name: TOOL_SEARCH_TOOL_NAME,
    status: 'success',
    additional_kwargs: { [PROMOTED_TOOLS_KWARG]: result.promoted },
  });
}

/** The tools a message promoted: those a `tool_search` tool message names, else none. */
export function promotedToolsOf(message: BaseMessage): string[] {
  if (!ToolMessage.isInstance(message) || message.name !== TOOL_SEARCH_TOOL_NAME) return [];
  const names: unknown = message.additional_kwargs[PROMOTED_TOOLS_KWARG];
  return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
}

/**
 * `tool_search` as a runnable tool (subagents): it answers with {@link toolSearchMessage}, so the
 * promotion travels in the conversation until the deferred tools middleware records it in state.
 */
export function createToolSearchTool(catalog: readonly DeferredTool[], maxResults: number): StructuredToolInterface {
  return new DynamicStructuredTool({
    name: TOOL_SEARCH_TOOL_NAME,
    description: description(maxResults),
    schema: parameters(),
    // Agents pass the call in the config (typed as a plain RunnableConfig here).
    func: async (args: Record<string, unknown>, _runManager, config) =>
      toolSearchMessage(searchDeferredTools(args, catalog, maxResults), (config as ToolRunnableConfig | undefined)?.toolCall?.id ?? ''),
  });
}
