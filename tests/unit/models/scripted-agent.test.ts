import { join } from 'node:path';

import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent, modelRetryMiddleware } from 'langchain';
import { z } from 'zod';

import { isScriptedProviderError } from '../../../src/models/errors';
import { loadScenario, parseScenario } from '../../../src/models/scenario';
import { ScriptedChatModel } from '../../../src/models/scripted-chat-model';

const FIXTURES = join(__dirname, '../../fixtures/scenarios');

const add = tool(({ a, b }: { a: number; b: number }) => a + b, {
  name: 'add',
  description: 'Adds two numbers.',
  schema: z.object({ a: z.number(), b: z.number() }),
});

describe('ScriptedChatModel inside langchain createAgent', () => {
  it('runs a subagent scenario: calls the real tool, then answers, with summed usage', async () => {
    const prompt = 'Please add 2 and 40';
    const model = new ScriptedChatModel({
      scenario: loadScenario(join(FIXTURES, 'subagent-tool.yaml')),
      role: { kind: 'subagent', taskPrompt: prompt },
      modelName: 'demo',
    });
    const agent = createAgent({ model, tools: [add], systemPrompt: 'You add numbers.' });
    const { messages } = await agent.invoke({ messages: [new HumanMessage(prompt)] });

    expect(messages.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'ai']);
    const toolMessage = messages[2];
    if (!ToolMessage.isInstance(toolMessage)) throw new Error('expected a ToolMessage');
    expect(toolMessage.status).toBe('success');
    expect(toolMessage.name).toBe('add');
    expect(toolMessage.content).toBe('42');
    expect(toolMessage.tool_call_id).toBe('call_subagent_0_0');

    const final = messages[3];
    if (!AIMessage.isInstance(final)) throw new Error('expected an AIMessage');
    expect(final.text).toBe('The sum is 42.');

    const total = messages.filter(AIMessage.isInstance).reduce((sum, m) => sum + (m.usage_metadata?.total_tokens ?? 0), 0);
    expect(total).toBe(35 + 52);
  });

  it('keeps absent usage absent in the final state', async () => {
    const scenario = parseScenario({ lead: [{ content: 'no usage here' }] }, 'inline');
    const agent = createAgent({ model: new ScriptedChatModel({ scenario, role: { kind: 'lead' }, modelName: 'demo' }), tools: [] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage('hi')] });
    const last = messages.at(-1);
    expect(AIMessage.isInstance(last)).toBe(true);
    expect(AIMessage.isInstance(last) ? last.usage_metadata : 'not an AIMessage').toBeUndefined();
  });

  it('lets retry middleware classify scripted provider errors by status', async () => {
    const scenario = loadScenario(join(FIXTURES, 'repeat-and-errors.yaml'));
    const model = new ScriptedChatModel({ scenario, role: { kind: 'lead' }, modelName: 'demo' });
    const seen: unknown[] = [];
    const agent = createAgent({
      model,
      tools: [],
      middleware: [
        modelRetryMiddleware({
          maxRetries: 2,
          initialDelayMs: 1,
          jitter: false,
          retryOn: (err: Error) => {
            seen.push(isScriptedProviderError(err) ? err.status : err);
            return isScriptedProviderError(err) && err.status === 429;
          },
        }),
      ],
    });
    // 'recovered' has no tool calls, so the run ends before the scenario's `forever` turn.
    const { messages } = await agent.invoke({ messages: [new HumanMessage('go')] });
    expect(seen).toEqual([429, 429]);
    expect(messages.at(-1)?.text).toBe('recovered');
  });

  it('rejects the run at once when aborted during delay_ms', async () => {
    const scenario = loadScenario(join(FIXTURES, 'repeat-and-errors.yaml'));
    const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'slow' }, modelName: 'demo' });
    const agent = createAgent({ model, tools: [] });
    const ac = new AbortController();
    // An explicit Error reason: under jest the default DOMException reason comes from another realm,
    // fails core's `instanceof Error` check and surfaces as a generic Error("Aborted").
    const reason = new Error('run cancelled');
    setTimeout(() => ac.abort(reason), 20);
    const started = Date.now();
    await expect(agent.invoke({ messages: [new HumanMessage('slow')] }, { signal: ac.signal })).rejects.toBe(reason);
    // Far below the turn's 10 s delay; loose enough for a loaded 2-core machine.
    expect(Date.now() - started).toBeLessThan(3000);
  });
});
