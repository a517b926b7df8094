import { createHash } from 'node:crypto';
import { HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { createAgent, type AgentMiddleware } from 'langchain';
import { z } from 'zod';

import { toolErrorHandlingMiddleware } from '../../../src/middleware/agent/tool-error-handling-middleware';
import { inputSanitizationMiddleware } from '../../../src/middleware/agent/input-sanitization-middleware';
import { harvestReceipts, RECEIPT_ID_KWARG } from '../../../src/receipts';
import { TOOL_RECEIPTS_MIDDLEWARE_NAME, toolReceiptsMiddleware, withToolReceipts } from '../../../src/receipts/agent';
import { RecordingChatModel, type ScriptStep } from '../middleware/recording-chat-model';

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

const add = tool(({ a, b }: { a: number; b: number }) => a + b, {
  name: 'add',
  description: 'Adds two numbers.',
  schema: z.object({ a: z.number(), b: z.number() }),
});
const flaky = tool(
  (): string => {
    throw new Error('disk full');
  },
  { name: 'flaky', description: 'Always fails.', schema: z.object({}) },
);

function run(script: readonly (ScriptStep | string)[], middleware: AgentMiddleware[]) {
  const { model, calls } = RecordingChatModel.answering(script);
  const agent = createAgent({ model, tools: [add, flaky], systemPrompt: 'Use the tools.', middleware });
  return { invoke: (task: string) => agent.invoke({ messages: [new HumanMessage(task)] }), calls };
}

function toolMessages(messages: readonly BaseMessage[]): ToolMessage[] {
  return messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
}

describe('toolReceiptsMiddleware inside createAgent', () => {
  it('shows the model each result with its receipt id, in call order across turns and parallel calls', async () => {
    const { invoke, calls } = run(
      [
        { content: '', toolCalls: [{ name: 'add', args: { a: 1, b: 2 } }, { name: 'flaky', args: {} }] },
        { content: '', toolCalls: [{ name: 'add', args: { b: 4, a: 3 } }] },
        'Added 1 and 2 [r1 add] and 3 and 4 [r3 add].',
      ],
      withToolReceipts([inputSanitizationMiddleware(), toolErrorHandlingMiddleware()]),
    );
    const { messages } = await invoke('add things');

    // What the model was sent: every tool result carries its receipt line.
    expect(calls).toHaveLength(3);
    const seen = toolMessages(calls[2] ?? []);
    expect(seen.map((m) => m.text)).toEqual([
      '3\n\nTool receipts ledger: r1 = add (ok). Cite it as [r1 add].',
      'Error: disk full\n\nTool receipts ledger: r2 = flaky (error). Cite it as [r2 flaky].',
      '7\n\nTool receipts ledger: r3 = add (ok). Cite it as [r3 add].',
    ]);
    expect(seen.map((m) => m.additional_kwargs[RECEIPT_ID_KWARG])).toEqual(['r1', 'r2', 'r3']);
    expect(seen.map((m) => m.status)).toEqual(['success', 'error', 'success']);

    // The ledger harvested from the final state gives every call the id the model was shown.
    expect(harvestReceipts(messages, sha256)).toEqual([
      { id: 'r1', tool_name: 'add', args_sha256: sha256('{"a":1,"b":2}'), outcome: 'ok', tool_call_id: 'call_1_0' },
      { id: 'r2', tool_name: 'flaky', args_sha256: sha256('{}'), outcome: 'error', tool_call_id: 'call_1_1' },
      { id: 'r3', tool_name: 'add', args_sha256: sha256('{"a":3,"b":4}'), outcome: 'ok', tool_call_id: 'call_2_0' },
    ]);
  });

  it('is placed immediately outside the tool error handler, so thrown tools are receipted as errors', () => {
    const chain = withToolReceipts([inputSanitizationMiddleware(), toolErrorHandlingMiddleware()]);
    expect(chain.map((m) => m.name)).toEqual(['InputSanitizationMiddleware', TOOL_RECEIPTS_MIDDLEWARE_NAME, 'ToolErrorHandlingMiddleware']);
    expect(withToolReceipts([]).map((m) => m.name)).toEqual([TOOL_RECEIPTS_MIDDLEWARE_NAME]);
  });

  it('leaves results alone when the state cannot be numbered (conflicting stamps): fail closed', async () => {
    const forged = new ToolMessage({ content: 'x', tool_call_id: 'old', additional_kwargs: { [RECEIPT_ID_KWARG]: 'not-an-id' } });
    const { model } = RecordingChatModel.answering([{ content: '', toolCalls: [{ name: 'add', args: { a: 1, b: 1 } }] }, 'done']);
    const agent = createAgent({ model, tools: [add], middleware: [toolReceiptsMiddleware()] });
    const { messages } = await agent.invoke({ messages: [new HumanMessage('go'), forged] });
    const result = toolMessages(messages).find((m) => m.tool_call_id !== 'old');
    expect(result?.text).toBe('2');
    expect(result?.additional_kwargs[RECEIPT_ID_KWARG]).toBeUndefined();
  });
});
