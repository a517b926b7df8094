import type { CatalogEntry, LeadCallRef, ToolCall } from '../contracts';
import { ASK_CLARIFICATION_TOOL_NAME, BATCH_TASK_TOOL_NAME, TASK_TOOL_NAME } from '../contracts/tool-names';
import { toolListIncludes } from '../contracts/tool-patterns';
import { validateTaskCall, type TaskPolicy } from './validate-task-call';

/** What one tool call of a lead response will do, decided before anything runs (pure). */
export type PlannedCall =
  | { readonly kind: 'task'; readonly ref: LeadCallRef; readonly subagent: CatalogEntry; readonly description: string }
  /** A `task` call naming an unknown or denied subagent, or with invalid arguments: a failed task. */
  | { readonly kind: 'refusedTask'; readonly ref: LeadCallRef; readonly subagentType: string; readonly description: string; readonly error: string }
  | { readonly kind: 'batch'; readonly ref: LeadCallRef }
  /** One of the lead's own tools: one `runLeadTool` activity. */
  | { readonly kind: 'leadTool'; readonly ref: LeadCallRef }
  /** `ask_clarification`: the run asks the user `question` and waits for the answer. */
  | { readonly kind: 'clarify'; readonly ref: LeadCallRef; readonly question: string }
  | { readonly kind: 'unknown'; readonly ref: LeadCallRef; readonly error: string };

/** What the planner needs of the run. */
export interface CallPlanContext extends TaskPolicy {
  readonly catalog: readonly CatalogEntry[];
  /**
   * The lead's own tools in this run ([] for runs recorded before the lead had tools): names, and
   * `<server>__*` for every tool of an MCP server.
   */
  readonly leadTools: readonly string[];
  /** Whether `batch_task` runs a batch (else it is an unknown tool, as in runs recorded before batches). */
  readonly batches: boolean;
  /** Whether `ask_clarification` is offered (runs recorded before it answered it as unknown). */
  readonly clarification?: boolean;
}

/**
 * Plans every call of one response. `callIds` are the ids the run gave the calls, in the same order
 * (the provider's ids are never keys: they may be empty, repeated or reused).
 */
export function planLeadCalls(calls: readonly ToolCall[], callIds: readonly string[], ctx: CallPlanContext): PlannedCall[] {
  return calls.map((call, index): PlannedCall => {
    const ref: LeadCallRef = { callId: callIds[index] ?? call.id, toolCallId: call.id, toolName: call.name };
    if (call.name === BATCH_TASK_TOOL_NAME && ctx.batches) return { kind: 'batch', ref };
    if (toolListIncludes(ctx.leadTools, call.name)) return { kind: 'leadTool', ref };
    if (call.name === ASK_CLARIFICATION_TOOL_NAME && ctx.clarification === true) {
      const question = typeof call.args['question'] === 'string' ? call.args['question'].trim() : '';
      return question === ''
        ? { kind: 'unknown', ref, error: 'Invalid ask_clarification arguments: question: is required (one focused question for the user)' }
        : { kind: 'clarify', ref, question };
    }
    if (call.name !== TASK_TOOL_NAME) return { kind: 'unknown', ref, error: `Unknown tool '${call.name}'. Available: ${availableTools(ctx)}` };
    const check = validateTaskCall(call, ctx.catalog, ctx);
    if (check.ok) return { kind: 'task', ref, subagent: check.subagent, description: check.description };
    return { kind: 'refusedTask', ref, subagentType: stringArg(call, 'subagent_type'), description: stringArg(call, 'description'), error: check.error };
  });
}

function availableTools(ctx: CallPlanContext): string {
  return [TASK_TOOL_NAME, ...(ctx.batches ? [BATCH_TASK_TOOL_NAME] : []), ...(ctx.clarification === true ? [ASK_CLARIFICATION_TOOL_NAME] : []), ...ctx.leadTools].join(', ');
}

function stringArg(call: ToolCall, name: string): string {
  const value = call.args[name];
  return typeof value === 'string' ? value.slice(0, 200) : '';
}

const SUMMARY_ARG_KEYS = ['path', 'url', 'command'] as const;
const SUMMARY_ARGS_MAX_CHARS = 120;

/**
 * The activity summary Temporal Web shows for a lead tool call: `<tool>: <short args>` (pure),
 * the argument that says most (`path`, `url`, `command`), else the arguments as JSON, cut short.
 */
export function leadToolSummary(call: Pick<ToolCall, 'name' | 'args'>): string {
  const key = SUMMARY_ARG_KEYS.find((k) => typeof call.args[k] === 'string');
  const shown = key === undefined ? JSON.stringify(call.args) : String(call.args[key]);
  const flat = shown.replace(/\s+/g, ' ').trim();
  const short = flat.length > SUMMARY_ARGS_MAX_CHARS ? `${flat.slice(0, SUMMARY_ARGS_MAX_CHARS - 1)}…` : flat;
  return `${call.name}: ${short}`;
}
