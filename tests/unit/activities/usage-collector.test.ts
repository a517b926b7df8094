import { AIMessage, HumanMessage } from '@langchain/core/messages';
import type { LLMResult } from '@langchain/core/outputs';
import { tool } from '@langchain/core/tools';
import { createAgent } from 'langchain';
import { z } from 'zod';

import { UsageCollector } from '../../../src/activities/usage-collector';
import { addUsage, usageOfMessage, type TokenUsage } from '../../../src/contracts';
import { summarizationMiddleware } from '../../../src/middleware/agent/summarization-middleware';
import { ScenarioSchema, ScriptedChatModel } from '../../../src/models';

function response(...messages: AIMessage[]): LLMResult {
  return { generations: [messages.map((message) => ({ text: '', message }))] };
}

function withUsage(input: number, output: number, total = input + output): AIMessage {
  return new AIMessage({ content: 'x', usage_metadata: { input_tokens: input, output_tokens: output, total_tokens: total } });
}

describe('UsageCollector', () => {
  test('sums one record per model run and publishes each new total', async () => {
    const published: unknown[] = [];
    const collector = new UsageCollector((total) => void published.push(total));
    await collector.handleLLMEnd(response(withUsage(10, 2)), 'run-1');
    // A repeated end for the same run is not counted twice.
    await collector.handleLLMEnd(response(withUsage(10, 2)), 'run-1');
    await collector.handleLLMEnd(response(withUsage(5, 1, 0)), 'run-2');
    expect(collector.total).toEqual({ input_tokens: 15, output_tokens: 3, total_tokens: 18 });
    expect(published).toEqual([
      { input_tokens: 10, output_tokens: 2, total_tokens: 12 },
      { input_tokens: 15, output_tokens: 3, total_tokens: 18 },
    ]);
  });

  test('absent or zero usage records nothing: the total stays null, never zero', async () => {
    const collector = new UsageCollector();
    await collector.handleLLMEnd(response(new AIMessage('no usage')), 'a');
    await collector.handleLLMEnd(response(withUsage(0, 0, 0)), 'b');
    await collector.handleLLMEnd({ generations: [[{ text: 'plain llm' }]] }, 'c');
    expect(collector.total).toBeNull();
  });

  test('takes the first generation that reports usage, once per response', async () => {
    const collector = new UsageCollector();
    await collector.handleLLMEnd(response(new AIMessage('none'), withUsage(3, 4), withUsage(100, 100)), 'r');
    expect(collector.total).toEqual({ input_tokens: 3, output_tokens: 4, total_tokens: 7 });
  });

  test('as run callbacks it also counts the summarizer a middleware calls, so compaction loses nothing', async () => {
    const scenario = ScenarioSchema.parse({
      subagents: [
        {
          match: '*',
          turns: [
            ...[0, 1, 2].map((i) => ({ content: `step ${i}`, tool_calls: [{ name: 'ping', args: {} }], usage: { input_tokens: 10, output_tokens: 1 } })),
            { content: 'done', usage: { input_tokens: 20, output_tokens: 2 } },
          ],
        },
      ],
      summarizer: { usage: { input_tokens: 7, output_tokens: 3 } },
    });
    const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'm', strict: false });
    const summarizer = new ScriptedChatModel({ scenario, role: { kind: 'summarizer' }, modelName: 'm', strict: false });
    const ping = tool(() => 'pong', { name: 'ping', description: 'Pings.', schema: z.object({}) });
    const agent = createAgent({
      model,
      tools: [ping],
      middleware: [summarizationMiddleware({ model: summarizer, trigger: { messages: 4 }, keep: { messages: 2 } })],
    });
    const collector = new UsageCollector();
    const final = await agent.invoke({ messages: [new HumanMessage('go')] }, { callbacks: [collector] });

    const remaining = final.messages.filter((m) => AIMessage.isInstance(m)).length;
    expect(remaining).toBeLessThan(4);
    // Summaries ran (each 7 + 3), and every call is counted: 3 × 11 + 22 + n × 10.
    const summaries = (collector.total!.total_tokens - 55) / 10;
    expect(summaries).toBeGreaterThan(0);
    expect(Number.isInteger(summaries)).toBe(true);
    expect(collector.total).toEqual({ input_tokens: 50 + 7 * summaries, output_tokens: 5 + 3 * summaries, total_tokens: 55 + 10 * summaries });
    // State keeps what compaction took out of the messages, so a resumed execution can count it: together with the kept responses, every call.
    const kept = final.messages.reduce<TokenUsage | null>((sum, m) => (AIMessage.isInstance(m) ? addUsage(sum, usageOfMessage(m)) : sum), null);
    expect(addUsage(final.compacted_usage, kept)).toEqual(collector.total);
  });
});
