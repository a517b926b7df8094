import { join } from 'node:path';

import { AIMessage, HumanMessage, SystemMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';

import { isScriptedProviderError, type ScriptedProviderError } from '../../../src/models/errors';
import { loadScenario, parseScenario, type Scenario } from '../../../src/models/scenario';
import { SCRIPT_EXHAUSTED_TEXT, ScriptedChatModel, type ModelRole } from '../../../src/models/scripted-chat-model';

const FIXTURES = join(__dirname, '../../fixtures/scenarios');
const LEAD: ModelRole = { kind: 'lead' };
const sub = (taskPrompt: string): ModelRole => ({ kind: 'subagent', taskPrompt });

/** A model over a parsed scenario, or over an inline document validated like a file. */
function model(scenario: Scenario | Record<string, unknown>, role: ModelRole = LEAD): ScriptedChatModel {
  return new ScriptedChatModel({ scenario: parseScenario(scenario, 'inline'), role, modelName: 'demo' });
}
async function answer(m: ScriptedChatModel, messages: BaseMessage[] = [new HumanMessage('go')], signal?: AbortSignal): Promise<AIMessage> {
  const out = await m.invoke(messages, signal === undefined ? undefined : { signal });
  if (!AIMessage.isInstance(out)) throw new Error('expected an AIMessage');
  return out;
}
async function rejection(p: Promise<unknown>): Promise<unknown> {
  try {
    await p;
  } catch (err) {
    return err;
  }
  throw new Error('expected a rejection');
}

describe('ScriptedChatModel turns', () => {
  it('answers content with stop finish reason and the configured model name', async () => {
    const msg = await answer(model({ lead: [{ content: 'hello' }] }));
    expect(msg.content).toBe('hello');
    expect(msg.tool_calls).toEqual([]);
    expect(msg.additional_kwargs.tool_calls).toBeUndefined();
    expect(msg.response_metadata).toMatchObject({ model_name: 'demo', finish_reason: 'stop' });
  });

  it('answers tool calls with given and generated ids, plus raw OpenAI-format tool calls', async () => {
    const m = model({
      lead: [{ tool_calls: [{ name: 'a', args: { x: 1 }, id: 'given' }, { name: 'b' }] }, { tool_calls: [{ name: 'c' }] }],
    });
    const first = await answer(m);
    expect(first.content).toBe('');
    expect(first.tool_calls).toEqual([
      { type: 'tool_call', id: 'given', name: 'a', args: { x: 1 } },
      { type: 'tool_call', id: 'call_lead_0_1', name: 'b', args: {} },
    ]);
    expect(first.additional_kwargs.tool_calls).toEqual([
      { id: 'given', type: 'function', function: { name: 'a', arguments: '{"x":1}' } },
      { id: 'call_lead_0_1', type: 'function', function: { name: 'b', arguments: '{}' } },
    ]);
    expect(first.response_metadata.finish_reason).toBe('tool_calls');
    const second = await answer(m);
    expect(second.tool_calls?.[0]?.id).toBe('call_lead_1_0');
  });

  it('generates the same ids when a fresh instance retries the same step', async () => {
    const scenario = parseScenario({ lead: [{ content: 'x' }, { tool_calls: [{ name: 't' }] }] }, 'inline');
    const history = [new HumanMessage('go'), new AIMessage('x')];
    const a = await answer(model(scenario), history);
    const b = await answer(model(scenario), history);
    expect(a.tool_calls?.[0]?.id).toBe('call_lead_1_0');
    expect(b.tool_calls).toEqual(a.tool_calls);
  });

  it('keeps ids unique across lead runs of one thread', async () => {
    const scenario = parseScenario({ lead: [{ tool_calls: [{ name: 't' }] }] }, 'inline');
    const run1 = await answer(model(scenario), [new HumanMessage('one')]);
    const history = [new HumanMessage('one'), run1, new ToolMessage({ content: 'ok', tool_call_id: 'call_lead_0_0' }), new AIMessage('done'), new HumanMessage('two')];
    const run2 = await answer(model(scenario), history);
    expect(run2.tool_calls?.[0]?.id).toBe('call_lead_t2_0_0');
  });

  it('sets usage_metadata only when the turn has usage, defaulting total_tokens', async () => {
    const m = model({
      lead: [{ content: 'a', usage: { input_tokens: 10, output_tokens: 5 } }, { content: 'b' }, { content: 'c', usage: { input_tokens: 1, output_tokens: 2, total_tokens: 7 } }],
    });
    expect((await answer(m)).usage_metadata).toEqual({ input_tokens: 10, output_tokens: 5, total_tokens: 15 });
    const noUsage = await answer(m);
    expect(noUsage.usage_metadata).toBeUndefined();
    expect('usage_metadata' in noUsage && noUsage.usage_metadata !== undefined).toBe(false);
    expect((await answer(m)).usage_metadata).toEqual({ input_tokens: 1, output_tokens: 2, total_tokens: 7 });
  });

  it('answers (script exhausted) with no tool calls and no usage once the list runs out', async () => {
    const m = model({ lead: [{ content: 'only', usage: { input_tokens: 1, output_tokens: 1 } }] });
    await answer(m);
    for (let i = 0; i < 2; i++) {
      const msg = await answer(m);
      expect(msg.content).toBe(SCRIPT_EXHAUSTED_TEXT);
      expect(msg.tool_calls).toEqual([]);
      expect(msg.usage_metadata).toBeUndefined();
    }
    expect((await answer(model({}))).content).toBe('(script exhausted)');
  });

  it('repeats a turn N times, and forever', async () => {
    const m = model(loadScenario(join(FIXTURES, 'repeat-and-errors.yaml')));
    const e1 = await rejection(answer(m));
    const e2 = await rejection(answer(m));
    expect([isScriptedProviderError(e1), isScriptedProviderError(e2)]).toEqual([true, true]);
    expect((await answer(m)).content).toBe('recovered');
    for (let i = 0; i < 4; i++) expect((await answer(m)).tool_calls?.[0]?.name).toBe('search');
    expect(m.position).toBe(7);
  });

  it('throws a provider error with the HTTP status parsed from the text', async () => {
    const err = (await rejection(answer(model({ lead: [{ error: '429 rate limited' }] })))) as ScriptedProviderError;
    expect(err.name).toBe('ScriptedProviderError');
    expect(err.message).toBe('429 rate limited');
    expect(err.status).toBe(429);
    const plain = (await rejection(answer(model(loadScenario(join(FIXTURES, 'repeat-and-errors.yaml')), sub('broken'))))) as ScriptedProviderError;
    expect(plain.message).toBe('provider exploded');
    expect(plain.status).toBeUndefined();
  });

  it('interrupts delay_ms at once when the signal aborts', async () => {
    const m = model(loadScenario(join(FIXTURES, 'repeat-and-errors.yaml')), sub('a slow task'));
    const ac = new AbortController();
    const pending = rejection(answer(m, undefined, ac.signal));
    await new Promise((r) => setTimeout(r, 20));
    const reason = new Error('run cancelled');
    const abortedAt = Date.now();
    ac.abort(reason);
    const err = await pending;
    expect(Date.now() - abortedAt).toBeLessThan(50);
    expect(err).toBe(reason);
  });

  it('rejects with an AbortError when aborted without a reason, and before starting', async () => {
    const m = model({ lead: [{ content: 'late', delay_ms: 10_000 }, { content: 'x' }] });
    const ac = new AbortController();
    const pending = rejection(answer(m, undefined, ac.signal));
    setTimeout(() => ac.abort(), 10);
    expect(await pending).toMatchObject({ name: 'AbortError' });
    expect(await rejection(answer(m, undefined, AbortSignal.abort()))).toMatchObject({ name: 'AbortError' });
  });

  it('waits delay_ms before answering when not aborted', async () => {
    const started = Date.now();
    expect((await answer(model({ lead: [{ content: 'slow', delay_ms: 30 }] }))).content).toBe('slow');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
  });
});

describe('ScriptedChatModel position and roles', () => {
  const scenario = parseScenario({ lead: [{ content: 't1' }, { content: 't2' }, { content: 't3' }, { content: 't4' }] }, 'inline');

  it('derives a fresh instance position from the AI messages after the last turn-opening human message', async () => {
    const history = [
      new SystemMessage('sys'),
      new HumanMessage('question'),
      new AIMessage('t1'),
      new HumanMessage({ content: 'injected', name: 'reminder' }),
      new HumanMessage({ content: 'hidden', additional_kwargs: { hide_from_ui: true } }),
      new AIMessage('t2'),
    ];
    expect((await answer(model(scenario), history)).content).toBe('t3');
  });

  it('restarts the lead script for a new human turn', async () => {
    const history = [new HumanMessage('q1'), new AIMessage('t1'), new AIMessage('t2'), new HumanMessage('q2')];
    expect((await answer(model(scenario), history)).content).toBe('t1');
  });

  it('advances by one per call after the first, whatever the messages say', async () => {
    const m = model(scenario);
    expect((await answer(m, [new HumanMessage('q'), new AIMessage('t1')])).content).toBe('t2');
    // A rewritten (summarized) history must not move the cursor back.
    expect((await answer(m, [new HumanMessage('summary')])).content).toBe('t3');
  });

  it('shares the cursor with bindTools copies, which are new instances without a tools property', async () => {
    const m = model(scenario);
    const bound = m.bindTools([{ type: 'function', function: { name: 'lookup', parameters: {} } }]);
    expect(bound).not.toBe(m);
    expect(bound).toBeInstanceOf(ScriptedChatModel);
    expect(bound.boundToolNames).toEqual(['lookup']);
    expect('tools' in bound).toBe(false);
    expect((await answer(bound)).content).toBe('t1');
    expect((await answer(m)).content).toBe('t2');
    expect((await answer(bound.bindTools([]))).content).toBe('t3');
  });

  it('gives two subagent tasks matching one rule each the turns from the start', async () => {
    const s = loadScenario(join(FIXTURES, 'demo.yaml'));
    for (const prompt of ['Find X in src', 'Find X in docs']) {
      const m = model(s, sub(prompt));
      const first = await answer(m, [new HumanMessage(prompt)]);
      expect(first.tool_calls?.[0]).toMatchObject({ name: 'bash', id: 'call_subagent_0_0' });
      expect(first.usage_metadata).toEqual({ input_tokens: 50, output_tokens: 10, total_tokens: 60 });
      expect((await answer(m)).content).toBe('X is 42 [r1 bash]');
    }
  });

  it('answers (script exhausted) for a subagent task no rule matches', async () => {
    const m = model(loadScenario(join(FIXTURES, 'demo.yaml')), sub('something else'));
    expect((await answer(m)).content).toBe('(script exhausted)');
  });

  it('reports its LangChain type', () => {
    expect(model({})._llmType()).toBe('scripted');
  });
});
