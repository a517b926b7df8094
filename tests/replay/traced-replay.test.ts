import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { startTracing, workerTracingOptions, type Tracing } from '../../src/telemetry';
import { workflowBundle } from '../../src/worker/create-workers';
import { readHistory, readManifest } from './fixtures';

// Tracing is opt-in: turning it on adds workflow interceptors to the bundle, which must replay every
// history recorded without them (and the other way round: they add no commands).
const fixtures = readManifest();
const exporter = new InMemorySpanExporter();
let tracing: Tracing;
beforeAll(() => {
  tracing = startTracing({ serviceName: 'deerflow-replay', spanProcessor: new SimpleSpanProcessor(exporter) });
});
afterAll(async () => {
  await tracing.shutdown();
});

test.each(fixtures)('recorded history $file replays on the traced workflow bundle', async (fixture) => {
  const options = { workflowBundle: await workflowBundle({ traced: true }), sinks: workerTracingOptions(tracing).sinks };
  await expect(Worker.runReplayHistory(options, historyFromJSON(readHistory(fixture)), fixture.workflowId)).resolves.toBeUndefined();
});
