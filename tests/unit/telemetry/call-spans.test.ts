import { AIMessage, ToolMessage } from '@langchain/core/messages';
import { SpanStatusCode } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { agentSpansMiddleware, inModelCallSpan, inToolCallSpan, startTracing, type Tracing } from '../../../src/telemetry';

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({ serviceName: 'unit', spanProcessor: new SimpleSpanProcessor(exporter) });
});
afterEach(() => exporter.reset());
afterAll(async () => {
  await tracing.shutdown();
});

const ids = { thread_id: 't1', run_id: 'r1', task_id: '0.0' };

test('a model call span carries the ids, the model and the usage the provider reported', async () => {
  const answer = new AIMessage({ content: 'hi', usage_metadata: { input_tokens: 12, output_tokens: 3, total_tokens: 15 } });
  await expect(inModelCallSpan({ ids, model: 'gpt', agent: 'general-purpose' }, () => Promise.resolve(answer))).resolves.toBe(answer);
  const [span] = exporter.getFinishedSpans();
  expect(span?.name).toBe('chat gpt');
  expect(span?.attributes).toEqual({
    'deerflow.thread_id': 't1',
    'deerflow.run_id': 'r1',
    'deerflow.task_id': '0.0',
    'deerflow.agent': 'general-purpose',
    'gen_ai.operation.name': 'chat',
    'gen_ai.request.model': 'gpt',
    'gen_ai.usage.input_tokens': 12,
    'gen_ai.usage.output_tokens': 3,
  });
  expect(span?.status.code).toBe(SpanStatusCode.UNSET);
});

test('a call that throws ends its span failed, with the exception, and the error goes on', async () => {
  await expect(inModelCallSpan({ ids, model: 'gpt' }, () => Promise.reject(new Error('429 rate limited')))).rejects.toThrow('429 rate limited');
  const [span] = exporter.getFinishedSpans();
  expect(span?.status).toEqual({ code: SpanStatusCode.ERROR, message: '429 rate limited' });
  expect(span?.events.map((e) => e.name)).toEqual(['exception']);
});

test('a tool answering with an error message ends its span failed', async () => {
  const refusal = new ToolMessage({ content: 'Error: no such file', tool_call_id: 'call_1', status: 'error' });
  await inToolCallSpan({ ids, tool: 'read_file', toolCallId: 'call_1' }, () => refusal);
  const [span] = exporter.getFinishedSpans();
  expect(span?.name).toBe('execute_tool read_file');
  expect(span?.attributes).toMatchObject({ 'gen_ai.tool.name': 'read_file', 'gen_ai.tool.call.id': 'call_1', 'deerflow.task_id': '0.0' });
  expect(span?.status.code).toBe(SpanStatusCode.ERROR);
});

test('the agent spans middleware validates its options', () => {
  expect(() => agentSpansMiddleware({ ids, model: '', agent: 'bash' })).toThrow();
  expect(agentSpansMiddleware({ ids, model: 'gpt', agent: 'bash' }).name).toBe('AgentSpansMiddleware');
});
