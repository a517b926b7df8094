import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { parse, stringify } from 'yaml';
import { z } from 'zod';
import { DeerFlowClient } from '../../src/client';
import { loadConfig } from '../../src/config';
import { RUN_STOP_REASONS, RunJsonOutputSchema, RunStatusSchema, RunStopReasonSchema, type RunJsonOutput } from '../../src/contracts';
import { openStores, type Stores } from '../../src/store';
import { leadRunWorkflowId } from '../../src/workflows/lead-run-messages';
import { createWorkers } from '../../src/worker/create-workers';
import { ModelRequestRecorder } from '../support/model-request-recorder';
import { createTestEnv } from '../support/temporal-env';
import { runCli, type CliResult } from './run-cli';

/**
 * Every folder under scenarios/stop-reasons/ is a case: config.yaml + scenario.yaml + expect.yaml.
 * Each case runs through the real `deerflow run --json` (a subprocess) against ONE dev server for
 * this file, with the case's own workers in this process (the CLI runs none when TEMPORAL_ADDRESS is
 * set), and its JSON must match expect.yaml. See README "Stop-reason scenarios".
 */
const CASES_DIR = join(__dirname, '..', '..', 'scenarios', 'stop-reasons');
const CASES = readdirSync(CASES_DIR, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();
const MESSAGE = 'Run the scenario.';

const CountsSchema = z.record(z.string(), z.number().int().positive());

/** expect.yaml: strict, so a misspelt expectation fails instead of being ignored. */
const ExpectationSchema = z
  .strictObject({
    status: RunStatusSchema,
    stop_reason: RunStopReasonSchema.nullable(),
    /** Only `null`: the run must end without a final message. */
    final_message: z.null().optional(),
    /** Substring(s) the final message must contain. */
    final_message_contains: z.union([z.string().min(1), z.array(z.string().min(1)).min(1)]).optional(),
    stripped_task_calls: z.number().int().nonnegative(),
    /** `tasks` counted by status (`{}`: none). */
    tasks: CountsSchema,
    /** `lead_tools` counted by status (`{}`: none). */
    lead_tools: CountsSchema,
    /** `events`, exactly. */
    events: CountsSchema,
    /** Lead calls closed without running (a `tool.end` with no `tool.start`), read from the store. */
    closed_calls: z.array(z.strictObject({ call_id: z.string(), tool: z.string(), error: z.string() })).optional(),
  })
  .refine((e) => (e.final_message === null) !== (e.final_message_contains !== undefined), {
    message: 'set exactly one of `final_message: null` and `final_message_contains`',
  });
type Expectation = z.infer<typeof ExpectationSchema>;

function readExpectation(name: string): Expectation {
  return ExpectationSchema.parse(parse(readFileSync(join(CASES_DIR, name, 'expect.yaml'), 'utf8')));
}

function countBy<T>(items: readonly T[], key: (item: T) => string): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const item of items) counts[key(item)] = (counts[key(item)] ?? 0) + 1;
  return counts;
}

/** The case's lead calls that got a `tool.end` but never a `tool.start`. */
async function closedCalls(stores: Stores, run: RunJsonOutput): Promise<Array<{ call_id: string; tool: string; error: string }>> {
  const events = await stores.events.listEvents({ runId: run.run_id, threadId: run.thread_id, eventTypes: ['tool.start', 'tool.end'], limit: 10_000 });
  const started = new Set(events.filter((e) => e.event === 'tool.start').map((e) => e.taskId));
  return events
    .filter((e) => e.event === 'tool.end' && !started.has(e.taskId))
    .map((e) => {
      const payload = e.payload as { call_id?: string; tool?: string; error?: string };
      return { call_id: payload.call_id ?? '', tool: payload.tool ?? '', error: payload.error ?? '' };
    });
}

function parseOutput(name: string, result: CliResult): RunJsonOutput {
  try {
    return RunJsonOutputSchema.parse(JSON.parse(result.stdout));
  } catch (err) {
    throw new Error(`case ${name}: no valid run JSON (${String(err)})\nexit code: ${result.code}\nstdout:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
}

/** A copy of the case in a temp dir, its store there too; returns the config path. */
function copyCase(name: string, dir: string): string {
  cpSync(join(CASES_DIR, name), dir, { recursive: true });
  const path = join(dir, 'config.yaml');
  const config = (parse(readFileSync(path, 'utf8')) ?? {}) as Record<string, unknown>;
  delete config.temporal; // the test's server and namespace, whatever the case says
  config.store = { ...(config.store as object | undefined), data_dir: join(dir, 'data') };
  writeFileSync(path, stringify(config));
  return path;
}

let env: TestWorkflowEnvironment | undefined;

beforeAll(async () => {
  env = await createTestEnv();
}, 60_000);

afterAll(async () => {
  await env?.teardown();
});

test('the cases cover every run stop reason, and none', () => {
  const covered = new Set(CASES.map((name) => readExpectation(name).stop_reason));
  expect([...covered].sort()).toEqual([...RUN_STOP_REASONS, null].sort());
});

test.each(CASES)('stop-reason case %s', async (name) => {
  const expected = readExpectation(name);
  const server = env!;
  const namespace = server.namespace ?? 'default';
  const dir = mkdtempSync(join(tmpdir(), `deerflow-stop-${name}-`));
  const configPath = copyCase(name, dir);
  const loaded = loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: server.address } });
  const stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
  const workers = await createWorkers({ connection: server.nativeConnection, namespace, loaded, stores });
  const running = workers.run();
  try {
    const result = await runCli(['run', '--json', '--config', configPath, MESSAGE], {
      cwd: dir,
      temporalAddress: server.address,
      // Pinned or emptied (empty = unset): nothing in the caller's shell sends the CLI elsewhere.
      env: { TEMPORAL_NAMESPACE: namespace, TEMPORAL_UI_URL: '', DATABASE_URL: '' },
      timeoutMs: 60_000,
    });
    const output = parseOutput(name, result);
    const observed = {
      exit_code: result.code,
      status: output.status,
      stop_reason: output.stop_reason,
      stripped_task_calls: output.stripped_task_calls,
      tasks: countBy(output.tasks, (t) => t.status),
      lead_tools: countBy(output.lead_tools, (t) => t.status),
      events: output.events,
      ...(expected.closed_calls === undefined ? {} : { closed_calls: await closedCalls(stores, output) }),
    };
    expect(observed).toEqual({
      exit_code: expected.status === 'completed' ? 0 : 1,
      status: expected.status,
      stop_reason: expected.stop_reason,
      stripped_task_calls: expected.stripped_task_calls,
      tasks: expected.tasks,
      lead_tools: expected.lead_tools,
      events: expected.events,
      ...(expected.closed_calls === undefined ? {} : { closed_calls: expected.closed_calls }),
    });
    if (expected.final_message === null) {
      expect(output.final_message).toBeNull();
    } else {
      const parts = ([] as string[]).concat(expected.final_message_contains ?? []);
      for (const part of parts) expect(output.final_message).toContain(part);
    }
  } finally {
    workers.shutdown();
    await running;
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);

test('deerflow run --json reports usage and model for tasks that completed, failed, timed out and were cancelled', async () => {
  const server = env!;
  const namespace = server.namespace ?? 'default';
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-usage-'));
  const task = (description: string) => ({ name: 'task', args: { description, prompt: `${description}: work`, subagent_type: 'general-purpose' } });
  const listing = { content: 'looking', tool_calls: [{ name: 'ls', args: { path: '.' } }], usage: { input_tokens: 30, output_tokens: 5 } };
  const hang = { content: 'late', delay_ms: 60_000, usage: { input_tokens: 1, output_tokens: 1 } };
  writeFileSync(
    join(dir, 'scenario.yaml'),
    stringify({
      lead: [{ tool_calls: [task('Done'), task('Broken'), task('Slow'), task('Stopped')] }, { content: 'summarized' }],
      subagents: [
        { match: 'Done', turns: [{ content: 'done', usage: { input_tokens: 10, output_tokens: 1 } }] },
        { match: 'Broken', turns: [listing, { error: '400 invalid request' }] },
        { match: '*', turns: [listing, hang] },
      ],
    }),
  );
  const configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      default_model: 'scripted',
      store: { data_dir: join(dir, 'data') },
      subagents: { timeout_seconds: 5 },
      subagent_runtime: { max_running: 4 },
    }),
  );
  const loaded = loadConfig({ path: configPath, env: { TEMPORAL_ADDRESS: server.address } });
  const stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
  const recorder = new ModelRequestRecorder();
  const workers = await createWorkers({ connection: server.nativeConnection, namespace, loaded, stores, modelCallbacks: [recorder] });
  const running = workers.run();
  try {
    const cli = runCli(['run', '--json', '--config', configPath, '--thread', 'usage-thread', MESSAGE], {
      cwd: dir,
      temporalAddress: server.address,
      env: { TEMPORAL_NAMESPACE: namespace, TEMPORAL_UI_URL: '', DATABASE_URL: '' },
      timeoutMs: 60_000,
    });
    // Task 0.3 ("Stopped") is cancelled once its second model call is in flight, before it times out.
    const stoppedCalls = () => recorder.requests.filter((r) => r.messages.some((m) => m.text.includes('Stopped: work'))).length;
    while (stoppedCalls() < 2) await new Promise((r) => setTimeout(r, 50));
    const [record] = await stores.messages.listMessages('usage-thread');
    const client = new DeerFlowClient(server.client, loaded.config, { agents: stores.agents, events: stores.events, batches: stores.batches });
    await client.cancelTask(leadRunWorkflowId('usage-thread', record!.runId), '0.3');

    const output = parseOutput('usage', await cli);
    const listed = { input_tokens: 30, output_tokens: 5, total_tokens: 35 };
    expect(output.tasks.map((t) => [t.description, t.status, t.model, t.token_usage])).toEqual([
      ['Done', 'completed', 'scripted', { input_tokens: 10, output_tokens: 1, total_tokens: 11 }],
      ['Broken', 'failed', 'scripted', listed],
      ['Slow', 'timed_out', 'scripted', listed],
      ['Stopped', 'cancelled', 'scripted', listed],
    ]);
  } finally {
    workers.shutdown();
    await running;
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
