import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { ExecutionSlot, executionSlotMiddleware, type ExecutionBinding } from '../../../src/activities/execution-slot';

type Hook = (request: Record<string, unknown>, handler: (request: Record<string, unknown>) => Promise<unknown>) => Promise<unknown>;

const model = (name: string) => ({ name }) as unknown as BaseChatModel;
const tool = (name: string) => ({ name }) as unknown as StructuredToolInterface;

/** A wrap-only middleware that logs entering and leaving each call. */
function recorder(name: string, log: string[]): AgentMiddleware {
  return createMiddleware({
    name,
    wrapModelCall: async (request, handler) => {
      log.push(`${name}>`);
      const result = await handler(request);
      log.push(`<${name}`);
      return result;
    },
    wrapToolCall: async (request, handler) => {
      log.push(`${name}>`);
      const result = await handler(request);
      log.push(`<${name}`);
      return result;
    },
  }) as AgentMiddleware;
}

function binding(log: string[], overrides: Partial<ExecutionBinding> = {}): ExecutionBinding {
  return {
    model: model('execution model'),
    tools: new Map([['ls', tool('ls of this execution')]]),
    summaryModel: undefined,
    wrappers: [recorder('progress', log), recorder('spans', log)],
    checkpointer: null,
    ...overrides,
  };
}

describe('ExecutionSlot', () => {
  test('holds one execution at a time, and nothing once unbound', () => {
    const slot = new ExecutionSlot();
    expect(() => slot.current).toThrow('a pooled subagent agent ran with no execution bound');
    const first = binding([]);
    slot.bind(first);
    expect(slot.current).toBe(first);
    expect(() => slot.bind(binding([]))).toThrow('a pooled subagent agent was bound to a second execution');
    slot.unbind();
    expect(() => slot.current).toThrow('no execution bound');
  });
});

describe('executionSlotMiddleware', () => {
  test("a model call runs the bound execution's wrappers in order, then goes to the execution's model", async () => {
    const slot = new ExecutionSlot();
    const log: string[] = [];
    slot.bind(binding(log));
    const wrap = executionSlotMiddleware(slot).wrapModelCall as unknown as Hook;
    const answer = new AIMessage('ok');
    const seen: unknown[] = [];
    const result = await wrap({ model: model('built with'), messages: [] }, async (request) => {
      log.push('model');
      seen.push(request['model']);
      return answer;
    });
    expect(result).toBe(answer);
    expect(log).toEqual(['progress>', 'spans>', 'model', '<spans', '<progress']);
    expect(seen).toEqual([slot.current.model]);
  });

  test("a tool call goes to the execution's tool of that name; a tool it did not bring runs as registered", async () => {
    const slot = new ExecutionSlot();
    const log: string[] = [];
    slot.bind(binding(log));
    const wrap = executionSlotMiddleware(slot).wrapToolCall as unknown as Hook;
    const ran: unknown[] = [];
    const handler = async (request: Record<string, unknown>) => {
      ran.push(request['tool']);
      return new ToolMessage({ content: 'x', tool_call_id: '1' });
    };
    const registeredSearch = tool('tool_search of the middleware');
    await wrap({ toolCall: { name: 'ls', args: {}, id: '1' }, tool: tool('ls the agent was built with') }, handler);
    await wrap({ toolCall: { name: 'tool_search', args: {}, id: '2' }, tool: registeredSearch }, handler);
    expect(ran).toEqual([slot.current.tools.get('ls'), registeredSearch]);
    expect(log).toEqual(['progress>', 'spans>', '<spans', '<progress', 'progress>', 'spans>', '<spans', '<progress']);
  });

  test('a call that started for one execution stays with it when the slot changes hands meanwhile', async () => {
    const slot = new ExecutionSlot();
    const first = binding([]);
    slot.bind(first);
    const wrap = executionSlotMiddleware(slot).wrapModelCall as unknown as Hook;
    let release: () => void = () => undefined;
    const seen: unknown[] = [];
    const call = wrap({ model: model('built with'), messages: [] }, async (request) => {
      await new Promise<void>((resolve) => (release = resolve));
      seen.push(request['model']);
      return new AIMessage('ok');
    });
    slot.unbind();
    slot.bind(binding([], { model: model('next execution') }));
    release();
    await call;
    expect(seen).toEqual([first.model]);
  });
});
