import { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { AIMessage, HumanMessage, type BaseMessage } from '@langchain/core/messages';
import type { ChatResult } from '@langchain/core/outputs';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { loopDetectionMiddleware } from '../../../src/middleware/agent/loop-detection-middleware';
import { REPEATED_CALLS_WARNING, repeatedCallsStopMessage } from '../../../src/middleware/loop-detection';
import { tokenBudgetMiddleware } from '../../../src/middleware/agent/token-budget-middleware';
import { tokenBudgetExceededMessage, tokenBudgetWarningMessage } from '../../../src/middleware/token-budget';
import { LoopDetectionConfigSchema } from '../../../src/config/schema';
import { llmErrorHandlingMiddleware } from '../../../src/middleware/agent/llm-error-handling-middleware';

/** What every copy of the fake model shares: the requests it received and how many it answered. */
interface Script {
  readonly requests: BaseMessage[][];
  calls: number;
  /** Builds the model's `n`-th response (1-based, across conversations) to `messages`. */
  readonly respond: (n: number, messages: readonly BaseMessage[]) => AIMessage;
  readonly maxCalls: number;
}

/** A minimal chat model: records each request and answers from `script.respond`. */
class RecordingModel extends BaseChatModel {
  constructor(private readonly script: Script) {
    super({});
  }

  _llmType(): string {
    return 'recording-fake';
  }

  override bindTools(): RecordingModel {
    return new RecordingModel(this.script);
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    this.script.requests.push([...messages]);
    this.script.calls += 1;
    if (this.script.calls > this.script.maxCalls) throw new Error(`fake model: more than ${this.script.maxCalls} calls`);
    const message = this.script.respond(this.script.calls, messages);
    return { generations: [{ message, text: '' }] };
  }
}

/** A tool call of `lookup` with a unique id, as parsed and as the provider's raw payload. */
function lookupCall(n: number, path: string, usage: { input: number; output: number } = { input: 1, output: 1 }): AIMessage {
  const id = `call-${n}`;
  return new AIMessage({
    id: `ai-${n}`,
    content: `step ${n}`,
    tool_calls: [{ id, name: 'lookup', args: { path }, type: 'tool_call' }],
    additional_kwargs: { tool_calls: [{ id, type: 'function', function: { name: 'lookup', arguments: JSON.stringify({ path }) } }] },
    response_metadata: { finish_reason: 'tool_calls' },
    usage_metadata: { input_tokens: usage.input, output_tokens: usage.output, total_tokens: usage.input + usage.output },
  });
}

function setup(respond: Script['respond'], maxCalls = 10) {
  const script: Script = { requests: [], calls: 0, respond, maxCalls };
  const toolRuns: string[] = [];
  const lookup = tool(
    async ({ path }: { path: string }) => {
      toolRuns.push(path);
      // Yield to the event loop so concurrent runs interleave their model calls.
      await new Promise((resolve) => setTimeout(resolve, 2));
      return `contents of ${path}`;
    },
    { name: 'lookup', description: 'Look a path up.', schema: z.object({ path: z.string() }) },
  );
  return { script, toolRuns, model: new RecordingModel(script), tools: [lookup] };
}

const named = (messages: readonly BaseMessage[], name: string) => messages.filter((m) => m.type === 'human' && m.name === name);

/** Every AI tool call is followed directly by its ToolMessages, and a warning is only ever last. */
function expectWellFormedRequest(messages: readonly BaseMessage[], warningName: string): void {
  messages.forEach((m, i) => {
    if (m.type === 'human' && m.name === warningName) expect(i).toBe(messages.length - 1);
    if (AIMessage.isInstance(m) && (m.tool_calls?.length ?? 0) > 0) {
      const ids = (m.tool_calls ?? []).map((c) => c.id);
      const following = messages.slice(i + 1, i + 1 + ids.length);
      expect(following.map((f) => (f.type === 'tool' ? (f as unknown as { tool_call_id: string }).tool_call_id : f.type))).toEqual(ids);
    }
  });
}

describe('loopDetectionMiddleware inside createAgent', () => {
  it('warns through the request only, then hard stops at hard_limit with loop_capped', async () => {
    const { script, toolRuns, model, tools } = setup((n) => lookupCall(n, '/same'));
    const guard = loopDetectionMiddleware({ warn_threshold: 2, hard_limit: 3 });
    const agent = createAgent({ model, tools, middleware: [guard] });
    const out = await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: 'r1', thread_id: 't1' } });

    expect(script.calls).toBe(3);
    expect(toolRuns).toEqual(['/same', '/same']);
    expect(script.requests.map((r) => named(r, 'loop_warning').map((m) => m.content))).toEqual([[], [], [REPEATED_CALLS_WARNING]]);
    for (const request of script.requests) expectWellFormedRequest(request, 'loop_warning');
    expect(script.requests[2]?.at(-2)?.type).toBe('tool');

    const last = out.messages.at(-1);
    expect(AIMessage.isInstance(last)).toBe(true);
    const final = last as AIMessage;
    const stop = repeatedCallsStopMessage(LoopDetectionConfigSchema.parse({ warn_threshold: 2, hard_limit: 3 }));
    expect({ id: final.id, content: final.content, tool_calls: final.tool_calls }).toEqual({ id: 'ai-3', content: `step 3\n\n${stop}`, tool_calls: [] });
    expect(final.additional_kwargs).toEqual({});
    expect(final.response_metadata.finish_reason).toBe('stop');
    expect(out.messages.filter((m) => m.id === 'ai-3')).toHaveLength(1);
    expect(named(out.messages, 'loop_warning')).toEqual([]);

    expect(guard.consumeStopReason('r1')).toBe('loop_capped');
    expect(guard.consumeStopReason('r1')).toBeNull();
  });

  it('keys a null run_id as null, and keeps runs apart', async () => {
    const { model, tools } = setup((n) => lookupCall(n, '/same'), 20);
    const guard = loopDetectionMiddleware({ warn_threshold: 2, hard_limit: 3 });
    const agent = createAgent({ model, tools, middleware: [guard] });
    await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: null, thread_id: 't2' } });
    expect(guard.consumeStopReason('r1')).toBeNull();
    expect(guard.consumeStopReason(null)).toBe('loop_capped');
  });
});

describe('tokenBudgetMiddleware inside createAgent', () => {
  const budget = { enabled: true, max_tokens: 1000, warn_threshold: 0.7, hard_stop_threshold: 1.0 };

  it('warns once at 0.7 through the request only, then hard stops with tool calls stripped and token_capped', async () => {
    // 350 tokens per response: 35%, 70% (warn), 105% (stop).
    const { script, toolRuns, model, tools } = setup((n) => lookupCall(n, `/p${n}`, { input: 300, output: 50 }));
    const guard = tokenBudgetMiddleware(budget);
    const agent = createAgent({ model, tools, middleware: [guard] });
    const out = await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: 'b1' } });

    expect(script.calls).toBe(3);
    expect(toolRuns).toEqual(['/p1', '/p2']);
    const warning = tokenBudgetWarningMessage({ reason: 'total', used: 700, budget: 1000, fraction: 0.7 });
    expect(script.requests.map((r) => named(r, 'budget_warning').map((m) => m.content))).toEqual([[], [], [warning]]);
    for (const request of script.requests) expectWellFormedRequest(request, 'budget_warning');

    const final = out.messages.at(-1) as AIMessage;
    const exceeded = tokenBudgetExceededMessage({ reason: 'total', used: 1050, budget: 1000, fraction: 1.05 });
    expect({ id: final.id, content: final.content, tool_calls: final.tool_calls }).toEqual({
      id: 'ai-3',
      content: `step 3\n\n${exceeded}`,
      tool_calls: [],
    });
    expect(exceeded).toContain('(1,050) has exceeded the safety limit (1,000)');
    expect(final.additional_kwargs).toEqual({});
    expect(final.response_metadata.finish_reason).toBe('stop');
    expect(final.usage_metadata?.total_tokens).toBe(350);
    expect(named(out.messages, 'budget_warning')).toEqual([]);

    expect(guard.consumeStopReason('b1')).toBe('token_capped');
    expect(guard.consumeStopReason('b1')).toBeNull();
  });

  it('warns at most once per run, again in the next run (even with the same run id), never counting earlier runs', async () => {
    // 100 tokens per tool response (warn at the 7th: 70%), the 9th answers: 815 of 1000 per run.
    const perRun = 9;
    const { script, model, tools } = setup(
      (n) => {
        if (n % perRun !== 0) return lookupCall(n, `/p${n}`, { input: 75, output: 25 });
        return new AIMessage({ id: `ai-${n}`, content: 'done', usage_metadata: { input_tokens: 10, output_tokens: 5, total_tokens: 15 } });
      },
      2 * perRun,
    );
    const guard = tokenBudgetMiddleware(budget);
    const agent = createAgent({ model, tools, middleware: [guard] });
    const first = await agent.invoke({ messages: [new HumanMessage('one')] }, { context: { run_id: 'a' }, recursionLimit: 100 });
    expect(first.messages.at(-1)?.content).toBe('done');
    // The second run starts from the first run's transcript: its 815 tokens must not count again.
    // afterAgent forgot run "a", so reusing the id starts a fresh budget.
    await agent.invoke({ messages: [...first.messages, new HumanMessage('two')] }, { context: { run_id: 'a' }, recursionLimit: 100 });

    const warnings = script.requests.map((r) => named(r, 'budget_warning').length);
    expect(warnings).toEqual([0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]);
    expect(guard.consumeStopReason('a')).toBeNull();
  });

  it('without a run_id key, still delivers its warning and stops, under a key no caller can consume', async () => {
    const { script, model, tools } = setup((n) => lookupCall(n, `/p${n}`, { input: 300, output: 50 }));
    const guard = tokenBudgetMiddleware(budget);
    const agent = createAgent({ model, tools, middleware: [guard] });
    const out = await agent.invoke({ messages: [new HumanMessage('go')] });
    expect(script.requests.map((r) => named(r, 'budget_warning').length)).toEqual([0, 0, 1]);
    expect((out.messages.at(-1) as AIMessage).tool_calls).toEqual([]);
    expect(guard.consumeStopReason(null)).toBeNull();
  });

  it('keeps concurrent invocations without a run_id apart (per-invocation fallback key)', async () => {
    // Each run: three 200-token tool responses (600 of 1000: no warning), then "done". Sharing one
    // key, the runs would warn at 800 and stop at 1000.
    const { script, model, tools } = setup((n, messages) => {
      const turn = messages.filter((m) => m.type === 'ai').length + 1;
      if (turn <= 3) return lookupCall(n, `/p${n}`, { input: 150, output: 50 });
      return new AIMessage({ id: `ai-${n}`, content: 'done' });
    });
    const agent = createAgent({ model, tools, middleware: [tokenBudgetMiddleware(budget)] });
    const runs = await Promise.all([1, 2].map(() => agent.invoke({ messages: [new HumanMessage('go')] })));

    expect(script.calls).toBe(8);
    // Interleaved: both runs had answered before either finished.
    expect(script.requests.slice(0, 4).map((r) => r.length)).toEqual([1, 1, 3, 3]);
    expect(runs.map((out) => out.messages.at(-1)?.content)).toEqual(['done', 'done']);
    expect(script.requests.flatMap((r) => named(r, 'budget_warning'))).toEqual([]);
  });
});

describe('both guards together', () => {
  it('report only their own stop reason', async () => {
    const { model, tools } = setup((n) => lookupCall(n, '/same', { input: 10, output: 10 }));
    const budget = tokenBudgetMiddleware({ enabled: true, max_tokens: 100_000 });
    const loop = loopDetectionMiddleware({ warn_threshold: 2, hard_limit: 3 });
    const agent = createAgent({ model, tools, middleware: [budget, loop] });
    await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: 'x', thread_id: 't' } });
    expect([budget.consumeStopReason('x'), loop.consumeStopReason('x')]).toEqual([null, 'loop_capped']);
  });
});

describe('the check runs inside the model call', () => {
  it('neither guard has an afterModel hook, and a hard stop never writes the stopped tool calls to state', async () => {
    const loop = loopDetectionMiddleware({ warn_threshold: 2, hard_limit: 3 });
    const budget = tokenBudgetMiddleware({ enabled: true, max_tokens: 1000, warn_threshold: 0.7, hard_stop_threshold: 1.0 });
    expect([loop.afterModel, budget.afterModel]).toEqual([undefined, undefined]);

    for (const [guard, usage] of [
      [loop, { input: 1, output: 1 }],
      [budget, { input: 300, output: 50 }],
    ] as const) {
      const { model, tools } = setup((n) => lookupCall(n, guard === loop ? '/same' : `/p${n}`, usage));
      const agent = createAgent({ model, tools, middleware: [guard] });
      const responses: Array<[string, BaseMessage]> = [];
      const updates = await agent.stream({ messages: [new HumanMessage('go')] }, { streamMode: 'updates', context: { run_id: 'w', thread_id: 'w' } });
      for await (const update of updates) {
        for (const [node, value] of Object.entries(update)) for (const m of (value as { messages?: BaseMessage[] } | null)?.messages ?? []) if (AIMessage.isInstance(m)) responses.push([node, m]);
      }
      // Each response is written once, by the model node; the stopped one without its tool calls.
      expect(responses.map(([node, m]) => [node, m.id, (m as AIMessage).tool_calls?.length])).toEqual([
        ['model_request', 'ai-1', 1],
        ['model_request', 'ai-2', 1],
        ['model_request', 'ai-3', 0],
      ]);
      expect(guard.consumeStopReason('w')).toBe(guard === loop ? 'loop_capped' : 'token_capped');
    }
  });
});

describe('a queued warning survives a model call that fails', () => {
  // The LLM error handling sits outside the guards (as in the subagent chain) and tries the call again.
  const retrying = () => llmErrorHandlingMiddleware({ sleep: async () => undefined });
  const unavailable = () => Object.assign(new Error('503 service unavailable'), { status: 503 });
  const answer = (n: number) => new AIMessage({ id: `ai-${n}`, content: 'done', usage_metadata: { input_tokens: 1, output_tokens: 1, total_tokens: 2 } });

  it('loop detection: the try after the failure carries it', async () => {
    const { script, model, tools } = setup((n) => {
      if (n === 3) throw unavailable();
      return n <= 2 ? lookupCall(n, '/same') : answer(n);
    });
    const guard = loopDetectionMiddleware({ warn_threshold: 2, hard_limit: 5 });
    const agent = createAgent({ model, tools, middleware: [retrying(), guard] });
    const out = await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: 'r', thread_id: 't' } });
    expect(script.calls).toBe(4);
    expect(script.requests.map((r) => named(r, 'loop_warning').map((m) => m.content))).toEqual([[], [], [REPEATED_CALLS_WARNING], [REPEATED_CALLS_WARNING]]);
    expect((out.messages.at(-1) as AIMessage).content).toBe('done');
    expect(guard.consumeStopReason('r')).toBeNull();
  });

  it('token budget: the try after the failure carries it', async () => {
    const { script, model, tools } = setup((n) => {
      if (n === 3) throw unavailable();
      return n <= 2 ? lookupCall(n, `/p${n}`, { input: 300, output: 50 }) : answer(n);
    });
    const guard = tokenBudgetMiddleware({ enabled: true, max_tokens: 1000, warn_threshold: 0.7, hard_stop_threshold: 1.0 });
    const agent = createAgent({ model, tools, middleware: [retrying(), guard] });
    await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: 'b' } });
    const warning = tokenBudgetWarningMessage({ reason: 'total', used: 700, budget: 1000, fraction: 0.7 });
    expect(script.calls).toBe(4);
    expect(script.requests.map((r) => named(r, 'budget_warning').map((m) => m.content))).toEqual([[], [], [warning], [warning]]);
    expect(guard.consumeStopReason('b')).toBeNull();
  });
});
