import type { CallbackManagerForLLMRun } from '@langchain/core/callbacks/manager';
import {
  BaseChatModel,
  type BaseChatModelCallOptions,
  type BaseChatModelParams,
  type BindToolsInput,
} from '@langchain/core/language_models/chat_models';
import { AIMessage, type BaseMessage, type OpenAIToolCall, type ToolCall } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';

import { abortReason, abortableDelay } from './abortable-delay';
import { ScriptedProviderError } from './errors';
import { checkProviderRequest } from './provider-request-rules';
import { selectSubagentTurns, type Scenario, type ScenarioTurn } from './scenario';
import { turnAt } from './turn-cursor';

/** The conversation a model instance answers for: the lead run, or one subagent task. */
export type ModelRole =
  | { readonly kind: 'lead' }
  /** `attempt`: the task's 1-based execution attempt (default 1); scenario rules may match on it. */
  | { readonly kind: 'subagent'; readonly taskPrompt: string; readonly attempt?: number }
  /** Writes compaction summaries; the scripted model answers these without consuming script turns. */
  | { readonly kind: 'summarizer' };

/** Text answered once a turn list has run out. */
export const SCRIPT_EXHAUSTED_TEXT = '(script exhausted)';

/**
 * Cursor shared by an instance and every copy `bindTools` makes of it.
 * `position` is null until the first `_generate` call derives it from the conversation.
 * @internal
 */
export interface ScriptCursor {
  position: number | null;
  /** 1-based ordinal of the conversation's current human turn; keeps tool-call ids unique per thread. */
  run: number;
}

/** Constructor fields of {@link ScriptedChatModel}. */
export interface ScriptedChatModelFields extends BaseChatModelParams {
  /** Parsed scenario (see `loadScenario`). */
  readonly scenario: Scenario;
  /** Which turn list to answer from. */
  readonly role: ModelRole;
  /** Reported as `response_metadata.model_name`; the configured model name. */
  readonly modelName: string;
  /**
   * Reject a request a strict provider would reject, with a 400 {@link ScriptedProviderError}
   * (see `checkProviderRequest`). @default true
   */
  readonly strict?: boolean;
}

/** State a `bindTools` copy shares with its origin. @internal */
interface SharedScript {
  readonly turns: readonly ScenarioTurn[];
  readonly cursor: ScriptCursor;
  readonly boundToolNames: readonly string[];
}

/**
 * A real LangChain chat model that replays a scenario (shared/docs/SCRIPTED_MODEL.md), so tests
 * and the offline demo take exactly the code path of a provider model: tool binding, tool calls,
 * usage metadata, provider errors and abort.
 *
 * Position rule: one lead run spans many stateless activities, each building a fresh model, so a
 * fresh instance derives its position from the conversation on its first call (the number of
 * AIMessages after the last turn-opening HumanMessage). From then on the cursor advances by one per
 * call, so history rewrites inside one instance (summarization) cannot move it back.
 *
 * Strict like a provider: unless `strict: false`, a request whose messages break the rules strict
 * providers enforce (`checkProviderRequest`) fails with a 400 before any turn is consumed.
 */
export class ScriptedChatModel extends BaseChatModel {
  /** Configured model name (echoed in `response_metadata.model_name`). */
  readonly modelName: string;
  /** Role this instance answers for. */
  readonly role: ModelRole;
  /** Names of the tools given to `bindTools` (never called `tools`: createAgent rejects that). */
  readonly boundToolNames: readonly string[];
  /** Whether malformed requests are rejected as strict providers do. */
  readonly strict: boolean;
  private readonly turns: readonly ScenarioTurn[];
  private readonly cursor: ScriptCursor;
  private readonly fields: ScriptedChatModelFields;

  /**
   * @param fields - scenario, role and model name, plus the usual chat model params
   * @param shared - cursor and turns of the instance this one was bound from @internal
   */
  constructor(fields: ScriptedChatModelFields, shared?: SharedScript) {
    const { scenario, role, modelName, strict, ...base } = fields;
    super(base);
    this.modelName = modelName;
    this.role = role;
    this.strict = strict ?? true;
    this.turns = shared?.turns ?? turnsFor(scenario, role);
    this.cursor = shared?.cursor ?? { position: null, run: 1 };
    this.boundToolNames = shared?.boundToolNames ?? [];
    this.fields = fields;
  }

  override _llmType(): string {
    return 'scripted';
  }

  /** What callbacks (tracing) see of a call, like a provider's: the names of the bound tools. */
  override invocationParams(): { tools: string[] } {
    return { tools: [...this.boundToolNames] };
  }

  /** The next 0-based position to answer, or null before the first call. */
  get position(): number | null {
    return this.cursor.position;
  }

  /**
   * Returns a NEW instance that shares this one's cursor. `kwargs` (tool_choice and such) are
   * accepted for interface compatibility and ignored: the script decides what to call.
   */
  override bindTools(tools: BindToolsInput[], _kwargs?: Partial<BaseChatModelCallOptions>): ScriptedChatModel {
    const names = tools.map(toolName).filter((n): n is string => n !== undefined);
    return new ScriptedChatModel(this.fields, {
      turns: this.turns,
      cursor: this.cursor,
      boundToolNames: [...this.boundToolNames, ...names],
    });
  }

  /**
   * Answers the next scripted turn. A request rejected by the strict check consumes no turn.
   * @throws the abort reason when `options.signal` aborts (also during `delay_ms`)
   * @throws {@link ScriptedProviderError} for an `error` turn, and (status 400) for a request a
   * strict provider would reject, unless `strict: false`
   */
  override async _generate(
    messages: BaseMessage[],
    options: this['ParsedCallOptions'],
    _runManager?: CallbackManagerForLLMRun,
  ): Promise<ChatResult> {
    const signal = options.signal;
    if (signal?.aborted === true) throw abortReason(signal);
    const violation = this.strict ? checkProviderRequest(messages) : null;
    if (violation !== null) throw ScriptedProviderError.invalidRequest(violation);
    if (this.role.kind === 'summarizer') return this.result(scriptedSummary(messages), [], this.fields.scenario.summarizer?.usage);
    if (this.cursor.position === null) Object.assign(this.cursor, deriveCursor(messages));
    const position = this.cursor.position ?? 0;
    this.cursor.position = position + 1;

    const lookup = turnAt(this.turns, position);
    if (lookup.kind === 'exhausted') return this.result(SCRIPT_EXHAUSTED_TEXT, [], undefined);
    const turn = lookup.turn;
    if (turn.delay_ms !== undefined) await abortableDelay(turn.delay_ms, signal);
    if (turn.error !== undefined) throw new ScriptedProviderError(turn.error);

    const toolCalls: ToolCall[] = (turn.tool_calls ?? []).map((tc, index) => ({
      type: 'tool_call',
      id: tc.id ?? this.toolCallId(position, index),
      name: tc.name,
      args: { ...tc.args },
    }));
    return this.result(turn.content ?? '', toolCalls, turn.usage, turn.finish_reason);
  }

  /**
   * Deterministic id: `call_<role>_<position>_<index>` in a conversation's first human turn,
   * `call_<role>_t<run>_<position>_<index>` in later ones (positions restart per lead run).
   */
  private toolCallId(position: number, index: number): string {
    const run = this.cursor.run > 1 ? `t${this.cursor.run}_` : '';
    return `call_${this.role.kind}_${run}${position}_${index}`;
  }

  private result(content: string, toolCalls: ToolCall[], usage: ScenarioTurn['usage'], finishReason?: string): ChatResult {
    const rawToolCalls: OpenAIToolCall[] = toolCalls.map((tc) => ({
      id: tc.id ?? '',
      type: 'function',
      function: { name: tc.name, arguments: JSON.stringify(tc.args) },
    }));
    const message = new AIMessage({
      content,
      tool_calls: toolCalls,
      additional_kwargs: rawToolCalls.length > 0 ? { tool_calls: rawToolCalls } : {},
      response_metadata: {
        model_name: this.modelName,
        finish_reason: finishReason ?? (toolCalls.length > 0 ? 'tool_calls' : 'stop'),
      },
      // Spread only when present: "no usage reported" must stay absent downstream, never zeros.
      ...(usage === undefined ? {} : { usage_metadata: { ...usage } }),
    });
    return {
      generations: [{ text: content, message }],
      ...(usage === undefined
        ? {}
        : {
            llmOutput: {
              tokenUsage: {
                promptTokens: usage.input_tokens,
                completionTokens: usage.output_tokens,
                totalTokens: usage.total_tokens,
              },
            },
          }),
    };
  }
}

/**
 * A HumanMessage that opens a turn of the conversation. Named ones and `hide_from_ui` ones are
 * injected by middleware, a summarization message replaces history rather than opening a turn, and
 * the answer to the lead's `ask_clarification` continues the same run.
 */
function isTurnOpening(m: BaseMessage): boolean {
  if (m.type !== 'human') return false;
  if (typeof m.name === 'string' && m.name.length > 0) return false;
  const kwargs = m.additional_kwargs;
  // The answer to the run's own question continues the run: its script goes on, it does not restart.
  return !kwargs['hide_from_ui'] && kwargs['lc_source'] !== 'summarization' && kwargs['clarification_answer'] !== true;
}

function deriveCursor(messages: readonly BaseMessage[]): ScriptCursor {
  let opening = -1;
  let run = 0;
  messages.forEach((m, i) => {
    if (isTurnOpening(m)) {
      opening = i;
      run += 1;
    }
  });
  const position = messages.slice(opening + 1).filter((m) => m.type === 'ai').length;
  return { position, run: Math.max(run, 1) };
}

function toolName(tool: BindToolsInput): string | undefined {
  if (typeof tool !== 'object' || tool === null) return undefined;
  const rec = tool as Record<string, unknown>;
  if (typeof rec['name'] === 'string') return rec['name'];
  const fn = rec['function'];
  if (typeof fn === 'object' && fn !== null) {
    const name = (fn as Record<string, unknown>)['name'];
    if (typeof name === 'string') return name;
  }
  return undefined;
}

function turnsFor(scenario: Scenario, role: ModelRole): readonly ScenarioTurn[] {
  switch (role.kind) {
    case 'lead':
      return scenario.lead ?? [];
    case 'subagent':
      return selectSubagentTurns(scenario, role.taskPrompt, role.attempt);
    case 'summarizer':
      return [];
  }
}

/**
 * A deterministic compaction summary: scenarios script the lead and subagents, not summaries, so
 * the scripted summarizer states what it was given (how many lines) instead of consuming a turn.
 */
function scriptedSummary(messages: readonly BaseMessage[]): string {
  const request = messages[messages.length - 1];
  const text = request === undefined ? '' : typeof request.content === 'string' ? request.content : request.text;
  const lines = text.split('\n').filter((line) => line.trim() !== '').length;
  return `(scripted summary of ${lines} transcript lines)`;
}
