import { mapStoredMessageToChatMessage, ToolMessage, type ToolCall } from '@langchain/core/messages';
import { ToolInputParsingException } from '@langchain/core/tools';
import {
  awaitsPromotion,
  boundText,
  deferredToolRefusal,
  defersMcpTools,
  messageText,
  PROMOTED_TOOLS_KWARG,
  TOOL_SEARCH_TOOL_NAME,
  toolListIncludes,
  type LeadToolCallInput,
  type LeadToolResult,
} from '../contracts';
import { bindLeadTools } from '../mcp';
import { messageKeys } from '../store';
import { createAgentTools, promotedToolsOf, searchDeferredTools, ThreadWorkspace } from '../tools';
import type { ActivityDeps } from './activity-deps';
import { rethrowIfCancelled, withHeartbeats } from './heartbeat';
import { LeadTurnCalls } from './lead-turn-calls';
import { parseActivityInput } from './parse-activity-input';
import { toolEndEvent, toolStartEvent } from './lead-tool-events';
import { putThreadMessage } from './thread-writes';
import { deerflowIdsOf, inToolCallSpan } from '../telemetry';

/**
 * Builds the `runLeadTool` activity: one of the lead's own tool calls. It reads the arguments from
 * the stored lead message (history holds only briefs), runs the tool in the thread's workspace with
 * the activity's cancellation signal (an MCP tool passes it on to its request), and writes the tool message and `tool.end` itself. A tool
 * error is a `failed` result the lead reads, never a failed activity; a cancellation is rethrown.
 */
export function createRunLeadTool(deps: ActivityDeps) {
  const leadTurns = new LeadTurnCalls(deps.stores.messages);
  return async function runLeadTool(raw: LeadToolCallInput): Promise<LeadToolResult> {
    const input = parseActivityInput('runLeadTool', raw);
    const key = messageKeys.tool(input.runId, input.callId);
    // A retry after the outcome was written returns it: the tool never runs twice for one call.
    const written = await deps.stores.messages.getMessage(input.threadId, key);
    if (written !== null) return resultOf(input.callId, mapStoredMessageToChatMessage(written));

    const target = { threadId: input.threadId, runId: input.runId, callId: input.callId };
    // By its tool-call id in the stored lead message (unique in the thread).
    const call = await leadTurns.callOf(input.threadId, input.runId, input.turn, input.toolCallId);
    await deps.stores.events.putBatch([toolStartEvent(target, input.toolName, call?.args ?? {})]);
    const outcome = await withHeartbeats((signal) => execute(deps, input, call, signal));
    const message = new ToolMessage({
      content: outcome.status === 'completed' ? outcome.output : `Error: ${outcome.error}`,
      tool_call_id: input.toolCallId,
      name: input.toolName,
      status: outcome.status === 'completed' ? 'success' : 'error',
      // Stored with the message, so a retry that finds it written returns the same promotion.
      ...(outcome.status === 'completed' && outcome.promoted !== undefined ? { additional_kwargs: { [PROMOTED_TOOLS_KWARG]: outcome.promoted } } : {}),
    });
    await putThreadMessage(deps, input.threadId, input.runId, key, message);
    await deps.stores.events.putBatch([
      toolEndEvent(target, input.toolName, outcome.status === 'completed' ? { status: 'completed', output: outcome.output } : { status: 'failed', error: outcome.error }),
    ]);
    return resultOf(input.callId, message);
  };
}

type Execution =
  /** `promoted`: the deferred tools a `tool_search` call promoted. */
  | { readonly status: 'completed'; readonly output: string; readonly promoted?: readonly string[] }
  | { readonly status: 'failed'; readonly error: string };

async function execute(deps: ActivityDeps, input: LeadToolCallInput, call: ToolCall | null, signal: AbortSignal): Promise<Execution> {
  if (call === null) return { status: 'failed', error: `Tool call ${input.callId} was not found in lead turn ${input.turn}` };
  // The run's snapshot decides, whatever the stored message names.
  if (!toolListIncludes(input.allowedTools, call.name)) return { status: 'failed', error: `Tool '${call.name}' is not available to this agent` };
  const { config } = deps;
  if (defersMcpTools(input.allowedTools)) {
    if (call.name === TOOL_SEARCH_TOOL_NAME) return searchTools(deps, input, call);
    // Its schema was not bound when the model made the call: its arguments are guesses.
    if (awaitsPromotion(call.name, input.promotedTools)) return { status: 'failed', error: deferredToolRefusal(call.name) };
  }
  const [builtIn] = createAgentTools({
    workspace: new ThreadWorkspace(config.store.data_dir, input.threadId),
    sandbox: config.sandbox,
    webFetch: config.web_fetch,
    names: [call.name],
  });
  // An MCP tool of a server that is down is still found: calling it answers with the server's status.
  const tool = builtIn ?? deps.mcp?.find(call.name) ?? undefined;
  if (tool === undefined) return { status: 'failed', error: `Tool '${call.name}' is not available in this deployment` };
  try {
    const target = { ids: deerflowIdsOf(input), tool: call.name, toolCallId: input.toolCallId };
    const output: unknown = await inToolCallSpan(target, () => tool.invoke(call.args, { signal }));
    return { status: 'completed', output: typeof output === 'string' ? output : (JSON.stringify(output) ?? '') };
  } catch (err) {
    rethrowIfCancelled(signal);
    if (err instanceof ToolInputParsingException) return { status: 'failed', error: `Invalid arguments for ${call.name}: ${err.message}` };
    return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
}

/** A `tool_search` call: this worker's allowed MCP tools ranked against the query, the matches promoted. */
function searchTools(deps: ActivityDeps, input: LeadToolCallInput, call: ToolCall): Execution {
  const { searchable } = bindLeadTools(input.allowedTools, deps.mcp?.entries() ?? [], input.promotedTools);
  try {
    const result = searchDeferredTools(call.args, searchable, deps.config.tool_search.max_results);
    return { status: 'completed', output: result.content, promoted: result.promoted };
  } catch (err) {
    return { status: 'failed', error: err instanceof Error ? err.message : String(err) };
  }
}

function resultOf(callId: string, message: ReturnType<typeof mapStoredMessageToChatMessage>): LeadToolResult {
  const text = messageText(message.content);
  const failed = ToolMessage.isInstance(message) && message.status === 'error';
  const promoted = promotedToolsOf(message);
  return {
    callId,
    status: failed ? 'failed' : 'completed',
    outputBrief: boundText(text),
    error: failed ? boundText(text.replace(/^Error: /, '')) : null,
    ...(promoted.length > 0 ? { promotedTools: promoted } : {}),
  };
}
