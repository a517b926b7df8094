import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { MiddlewareError, ToolInvocationError, createAgent, createMiddleware } from 'langchain';
import { z } from 'zod';

import { toolErrorContent, toolErrorHandlingMiddleware } from '../../../src/middleware/agent/tool-error-handling-middleware';
import { abortableDelay } from '../../../src/models/abortable-delay';
import { RecordingChatModel } from './recording-chat-model';

describe('toolErrorContent', () => {
  it('is "Error: <message>" without a stack, whatever wraps the error', () => {
    expect(toolErrorContent(new Error('disk full'))).toBe('Error: disk full');
    expect(toolErrorContent(new TypeError('  '))).toBe('Error: TypeError');
    expect(toolErrorContent('plain')).toBe('Error: plain');
    expect(toolErrorContent(MiddlewareError.wrap(new Error('inner failure'), 'audit'))).toBe('Error: inner failure');
    const invocation = new ToolInvocationError(new Error('a: expected number'), { name: 'add', args: { a: 'x' }, id: 'c1', type: 'tool_call' });
    expect(invocation.message).toContain('\n    at ');
    expect(toolErrorContent(invocation)).toBe('Error: a: expected number');
  });

  it('cuts long details', () => {
    expect(toolErrorContent(new Error('x'.repeat(50)), 20)).toBe(`Error: ${'x'.repeat(17)}...`);
  });
});

describe('toolErrorHandlingMiddleware', () => {
  it('rejects unknown or out-of-range options', () => {
    expect(() => toolErrorHandlingMiddleware({ maxDetailChars: 5 })).toThrow();
    expect(() => toolErrorHandlingMiddleware({ verbose: true } as never)).toThrow();
  });

  it('re-throws the cancellation of an aborted tool instead of reporting it to the model', async () => {
    const started: number[] = [];
    const slow = tool(
      async (_args: Record<string, never>, config: { signal?: AbortSignal }) => {
        started.push(Date.now());
        await abortableDelay(30_000, config.signal);
        return 'never';
      },
      { name: 'slow', description: 'Takes long.', schema: z.object({}) },
    );
    const { model, calls } = RecordingChatModel.answering([{ content: '', toolCalls: [{ name: 'slow', args: {} }] }, 'unreachable']);
    // Outer probe: what the error middleware did with the abort, which the rejected run hides.
    const outcomes: string[] = [];
    const probe = createMiddleware({
      name: 'probe',
      wrapToolCall: async (request, handler) => {
        try {
          const result = await handler(request);
          outcomes.push('returned');
          return result;
        } catch (err) {
          outcomes.push('threw');
          throw err;
        }
      },
    });
    const agent = createAgent({ model, tools: [slow], middleware: [probe, toolErrorHandlingMiddleware()] });
    const cancelled = Object.assign(new Error('CANCELLED'), { name: 'CancelledFailure' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(cancelled), 50);

    await expect(agent.invoke({ messages: [new HumanMessage('task')] }, { signal: controller.signal })).rejects.toBe(cancelled);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(outcomes).toEqual(['threw']);
    expect(started).toHaveLength(1);
    expect(calls).toHaveLength(1);
  });
});
