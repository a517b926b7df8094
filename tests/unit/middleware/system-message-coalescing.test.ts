import { AIMessage, HumanMessage, SystemMessage, type BaseMessage } from '@langchain/core/messages';
import { MemorySaver } from '@langchain/langgraph';
import { createAgent, createMiddleware } from 'langchain';

import { dateContextMiddleware } from '../../../src/middleware/agent/date-context-middleware';
import { systemMessageCoalescingMiddleware } from '../../../src/middleware/agent/system-message-coalescing-middleware';

import {
  coalesceSystemParts,
  flattenContent,
  isDynamicContextReminder,
  planSystemCoalescing,
} from '../../../src/middleware/system-message-coalescing';
import { RecordingChatModel } from './recording-chat-model';

const SYSTEM_PROMPT = 'You are a subagent.';

const reminder = (date: string, id?: string) =>
  new SystemMessage({
    content: `<current_date>${date}</current_date>`,
    additional_kwargs: { hide_from_ui: true, dynamic_context_reminder: true, reminder_date: date },
    ...(id === undefined ? {} : { id }),
  });

describe('flattenContent (SPEC §6.4 _flatten_content)', () => {
  it('keeps strings, joins lists by newline, stringifies the rest', () => {
    expect(flattenContent('plain')).toBe('plain');
    expect(flattenContent([{ type: 'text', text: 'a' }, 'b', { type: 'image_url', image_url: 'u' }])).toBe('a\nb\n{"type":"image_url","image_url":"u"}');
    expect(flattenContent([])).toBe('');
    expect(flattenContent(7)).toBe('7');
    expect(flattenContent(undefined)).toBe('');
  });
});

describe('coalesceSystemParts', () => {
  it('joins contents by a blank line, keeps the first id and merges kwargs (later wins)', () => {
    expect(
      coalesceSystemParts([
        { content: [{ type: 'text', text: 'You are a subagent.' }], id: 'sys-1', additional_kwargs: { a: 1, b: 1 } },
        { content: 'Extra rules.', id: 'sys-2', additional_kwargs: { b: 2 } },
      ]),
    ).toEqual({ content: 'You are a subagent.\n\nExtra rules.', id: 'sys-1', additional_kwargs: { a: 1, b: 2 } });
  });

  it('keeps only the last dynamic-context reminder', () => {
    const merged = coalesceSystemParts([{ content: 'base' }, reminder('2025-03-03, Monday', 'r1'), { content: 'mid' }, reminder('2025-03-04, Tuesday', 'r2')]);
    expect(merged).toEqual({
      content: 'base\n\nmid\n\n<current_date>2025-03-04, Tuesday</current_date>',
      id: undefined,
      additional_kwargs: { hide_from_ui: true, dynamic_context_reminder: true, reminder_date: '2025-03-04, Tuesday' },
    });
    expect(isDynamicContextReminder(reminder('x'))).toBe(true);
    expect(isDynamicContextReminder({ content: 'x', additional_kwargs: { dynamic_context_reminder: 0 } })).toBe(false);
  });

  it('returns null for no parts', () => {
    expect(coalesceSystemParts([])).toBeNull();
  });
});

describe('planSystemCoalescing', () => {
  it('returns null when the conversation holds no SystemMessage, even with a system prompt', () => {
    expect(planSystemCoalescing(new SystemMessage('prompt'), [new HumanMessage('hi'), new AIMessage('yo')])).toBeNull();
  });

  it('folds the prompt and in-conversation system messages, keeping the others in order', () => {
    const human = new HumanMessage('task');
    const ai = new AIMessage('step');
    const later = new HumanMessage('more');
    const plan = planSystemCoalescing(new SystemMessage({ content: [{ type: 'text', text: 'prompt' }], id: 'p' }), [
      human,
      reminder('2025-03-04, Tuesday', 'r'),
      ai,
      new SystemMessage({ content: 'late note', additional_kwargs: { x: 1 } }),
      later,
    ]);
    expect(plan?.systemMessage).toEqual({
      content: 'prompt\n\n<current_date>2025-03-04, Tuesday</current_date>\n\nlate note',
      id: 'p',
      additional_kwargs: { hide_from_ui: true, dynamic_context_reminder: true, reminder_date: '2025-03-04, Tuesday', x: 1 },
    });
    expect(plan?.messages).toEqual([human, ai, later]);
    expect(plan?.messages[0]).toBe(human);
  });

  it('leaves out an empty system prompt (an agent without one)', () => {
    const plan = planSystemCoalescing(new SystemMessage(''), [reminder('2025-03-04, Tuesday', 'r'), new HumanMessage('t')]);
    expect(plan?.systemMessage.id).toBe('r');
    expect(plan?.systemMessage.content).toBe('<current_date>2025-03-04, Tuesday</current_date>');
  });
});

describe('system message coalescing inside createAgent', () => {
  function probes() {
    const seen: { outer?: { messages: BaseMessage[]; system: SystemMessage }; inner?: { messages: BaseMessage[]; system: SystemMessage } } = {};
    const outer = createMiddleware({
      name: 'outerProbe',
      wrapModelCall: (request, handler) => {
        seen.outer = { messages: request.messages, system: request.systemMessage };
        return handler(request);
      },
    });
    const inner = createMiddleware({
      name: 'innerProbe',
      wrapModelCall: (request, handler) => {
        seen.inner = { messages: request.messages, system: request.systemMessage };
        return handler(request);
      },
    });
    return { seen, outer, inner };
  }

  it('passes the same request through when the conversation has no SystemMessage', async () => {
    const { seen, outer, inner } = probes();
    const { model, calls } = RecordingChatModel.answering(['done']);
    const agent = createAgent({ model, tools: [], systemPrompt: SYSTEM_PROMPT, middleware: [outer, systemMessageCoalescingMiddleware(), inner] });
    await agent.invoke({ messages: [new HumanMessage('task')] });

    expect(seen.inner?.messages).toBe(seen.outer?.messages);
    expect(seen.inner?.system).toBe(seen.outer?.system);
    expect(calls[0]?.map((m) => m.type)).toEqual(['system', 'human']);
  });

  it('hands the handler one merged systemMessage and the non-system messages in order', async () => {
    const { seen, outer, inner } = probes();
    const { model, calls } = RecordingChatModel.answering(['done']);
    const note = createMiddleware({
      name: 'note',
      beforeAgent: () => ({ messages: [new SystemMessage({ content: 'Note from middleware.', id: 'note-1', additional_kwargs: { source: 'note' } })] }),
    });
    const agent = createAgent({ model, tools: [], middleware: [note, outer, systemMessageCoalescingMiddleware(), inner] });
    await agent.invoke({ messages: [new HumanMessage('task')] });

    expect(seen.outer?.messages.map((m) => m.type)).toEqual(['human', 'system']);
    expect(seen.inner?.messages.map((m) => m.type)).toEqual(['human']);
    expect(seen.inner?.system.text).toBe('Note from middleware.');
    expect(seen.inner?.system.id).toBe('note-1');
    expect(seen.inner?.system.additional_kwargs).toEqual({ source: 'note' });
    expect(calls[0]?.map((m) => `${m.type}:${m.text}`)).toEqual(['system:Note from middleware.', 'human:task']);
  });

  it('keeps only the newest date reminder when a thread carries several', async () => {
    const days = [new Date('2025-03-04T12:00:00Z'), new Date('2025-03-05T12:00:00Z')];
    const { model, calls } = RecordingChatModel.answering(['first', 'second']);
    const agent = createAgent({
      model,
      tools: [],
      systemPrompt: SYSTEM_PROMPT,
      checkpointer: new MemorySaver(),
      middleware: [dateContextMiddleware({ now: () => days.shift() ?? new Date(0), timeZone: 'UTC' }), systemMessageCoalescingMiddleware()],
    });
    const config = { configurable: { thread_id: 't1' } };
    await agent.invoke({ messages: [new HumanMessage('one')] }, config);
    const { messages } = await agent.invoke({ messages: [new HumanMessage('two')] }, config);

    expect(messages.filter((m) => m.type === 'system')).toHaveLength(2);
    expect(calls[1]?.map((m) => m.type)).toEqual(['system', 'human', 'ai', 'human']);
    expect(calls[1]?.[0]?.text).toBe(`${SYSTEM_PROMPT}\n\n<system-reminder>\n<current_date>2025-03-05, Wednesday</current_date>\n</system-reminder>`);
    expect(calls[1]?.[0]?.additional_kwargs['reminder_date']).toBe('2025-03-05, Wednesday');
  });
});
