import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { Client } from '@temporalio/client';
import { DeerFlowClient } from '../../src/client';
import { clientTracingInterceptors, SPAN_ATTRIBUTES, startTracing, type Tracing } from '../../src/telemetry';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({ serviceName: 'deerflow-test', spanProcessor: new SimpleSpanProcessor(exporter) });
});
afterAll(async () => {
  await tracing.shutdown();
});

const taskAndBash = {
  lead: [
    {
      tool_calls: [
        { name: 'task', args: { description: 'Count', prompt: 'Alpha: count with bash', subagent_type: 'general-purpose' } },
        { name: 'bash', args: { command: 'echo direct' } },
      ],
    },
    { content: 'All done.' },
  ],
  subagents: [
    {
      match: 'Alpha',
      // Slower than the one-second progress interval below: the flush before its tool signals the run.
      turns: [{ tool_calls: [{ name: 'bash', args: { command: 'echo counted' } }], usage: { input_tokens: 30, output_tokens: 7 }, delay_ms: 1_100 }, { content: 'Counted [r1 bash]' }],
    },
  ],
};

function named(spans: readonly ReadableSpan[], name: string): ReadableSpan[] {
  return spans.filter((s) => s.name === name);
}

function only(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = named(spans, name);
  expect(found.map((s) => s.name)).toEqual([name]);
  return found[0]!;
}

function childrenOf(spans: readonly ReadableSpan[], parent: ReadableSpan): ReadableSpan[] {
  return spans.filter((s) => s.parentSpanId === parent.spanContext().spanId);
}

test('a traced lead run with a subagent yields one trace: client, workflow, activity, model-call and tool-call spans with the ids', async () => {
  const harness = await temporal.start(taskAndBash, { subagent_runtime: { progress_signal_seconds: 1 } }, { tracing });
  const env = temporal.env();
  // A traced client, as the CLI and the gateway use when tracing is on: the run's trace starts here.
  const tracedClient = new Client({ connection: env.connection, namespace: env.namespace ?? 'default', interceptors: clientTracingInterceptors() });
  const deerflow = new DeerFlowClient(tracedClient, harness.loaded.config, harness.stores);
  const started = await deerflow.startRun({ message: 'count', threadId: 'thread-otel', runId: 'run-otel' });
  await started.handle.result();
  const state = await deerflow.getState(started.workflowId);
  expect(state.status).toBe('completed');
  const taskId = state.tasks[0]!.taskId;

  // Workflow spans leave the sandbox through a sink after their activation; wait for the run's own.
  await waitFor(async () => named(exporter.getFinishedSpans(), 'RunWorkflow:leadRunWorkflow').length > 0);
  await tracing.flush();
  const spans = exporter.getFinishedSpans();
  const ids = { [SPAN_ATTRIBUTES.threadId]: 'thread-otel', [SPAN_ATTRIBUTES.runId]: 'run-otel' };

  // Client -> workflow -> activity, linked through Temporal headers.
  const start = only(spans, 'StartWorkflow:leadRunWorkflow');
  const workflow = only(spans, 'RunWorkflow:leadRunWorkflow');
  expect(workflow.parentSpanId).toBe(start.spanContext().spanId);
  expect(workflow.attributes).toMatchObject({ workflowId: started.workflowId, workflowType: 'leadRunWorkflow' });
  const scheduleSubagent = only(spans, 'StartActivity:runSubagent');
  expect(scheduleSubagent.parentSpanId).toBe(workflow.spanContext().spanId);
  const subagent = only(spans, 'RunActivity:runSubagent');
  expect(subagent.parentSpanId).toBe(scheduleSubagent.spanContext().spanId);
  expect(subagent.attributes).toMatchObject({ ...ids, [SPAN_ATTRIBUTES.taskId]: taskId });
  // The second step writes the task's outcome first when the task ended last (leadModelStepWithOutcomes).
  const leadSteps = [...named(spans, 'RunActivity:leadModelStep'), ...named(spans, 'RunActivity:leadModelStepWithOutcomes')];
  expect(leadSteps).toHaveLength(2);
  // Everything the run did is one trace, task progress signals from the subagent included; only the
  // test's own state query starts another.
  const runSpans = spans.filter((s) => s.name !== 'QueryWorkflow:state');
  expect(new Set(runSpans.map((s) => s.spanContext().traceId))).toEqual(new Set([start.spanContext().traceId]));
  expect(named(spans, 'HandleSignal:taskProgress').length).toBeGreaterThan(0);
  expect(spans.every((s) => s.resource.attributes['service.name'] === 'deerflow-test')).toBe(true);

  // The subagent's model and tool calls, inside its activity span (beside its progress signals).
  const subagentCalls = childrenOf(spans, subagent).filter((s) => s.attributes[SPAN_ATTRIBUTES.operation] !== undefined);
  expect(subagentCalls.map((s) => s.name).sort()).toEqual(['chat scripted', 'chat scripted', 'execute_tool bash']);
  for (const call of subagentCalls) expect(call.attributes).toMatchObject({ ...ids, [SPAN_ATTRIBUTES.taskId]: taskId, [SPAN_ATTRIBUTES.agent]: 'general-purpose' });
  const [firstModelCall] = subagentCalls.filter((s) => s.name === 'chat scripted').sort((a, b) => a.startTime[0] - b.startTime[0] || a.startTime[1] - b.startTime[1]);
  expect(firstModelCall?.attributes).toMatchObject({
    [SPAN_ATTRIBUTES.operation]: 'chat',
    [SPAN_ATTRIBUTES.model]: 'scripted',
    [SPAN_ATTRIBUTES.inputTokens]: 30,
    [SPAN_ATTRIBUTES.outputTokens]: 7,
  });
  expect(subagentCalls.find((s) => s.name === 'execute_tool bash')?.attributes).toMatchObject({ [SPAN_ATTRIBUTES.operation]: 'execute_tool', [SPAN_ATTRIBUTES.toolName]: 'bash' });

  // The lead's model calls (one per turn) and its own tool call, each inside its activity span.
  const leadModelCalls = leadSteps.flatMap((step) => childrenOf(spans, step));
  expect(leadModelCalls.map((s) => [s.name, s.attributes[SPAN_ATTRIBUTES.turn]]).sort()).toEqual([['chat scripted', 0], ['chat scripted', 1]]);
  for (const call of leadModelCalls) expect(call.attributes).toMatchObject(ids);
  const leadTool = only(spans, 'RunActivity:runLeadTool');
  const [leadToolCall] = childrenOf(spans, leadTool);
  expect(leadToolCall?.name).toBe('execute_tool bash');
  expect(leadToolCall?.attributes).toMatchObject({ ...ids, [SPAN_ATTRIBUTES.callId]: '0.1' });
});
