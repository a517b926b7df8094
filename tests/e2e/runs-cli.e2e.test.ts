import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildLeadRunInput, leadRunStartOptions } from '../../src/client';
import { RunShowJsonOutputSchema, RunsListJsonOutputSchema, SA_RUN_STATUS, WORKFLOW_TASK_QUEUE, WORKFLOW_TYPES } from '../../src/contracts';
import { useTemporal, waitFor } from '../support/use-temporal';
import { runCli, type CliResult } from './run-cli';

const temporal = useTemporal();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-runs-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** The CLI against the test's dev server (its workers run in this process), with no config file. */
function deerflow(args: readonly string[]): Promise<CliResult> {
  return runCli(args, {
    cwd: dir,
    temporalAddress: temporal.env().address,
    env: { TEMPORAL_NAMESPACE: temporal.env().namespace ?? 'default', TEMPORAL_UI_URL: '', DATABASE_URL: '' },
    timeoutMs: 60_000,
  });
}

test('runs list filters lead runs by user, thread and status (also runs a plain client started); runs show prints the state', async () => {
  const harness = await temporal.start({ lead: [{ content: 'hello', repeat: 'forever' }] });
  await (await harness.client.startRun({ message: 'one', threadId: 'runs-a', runId: 'run-1', userId: 'alice' })).handle.result();
  // The second run as `temporal workflow start` would: no search attributes but what the run upserts.
  const input = buildLeadRunInput(harness.loaded.config, { message: 'two', threadId: 'runs-b', runId: 'run-2', userId: 'bob' });
  const { workflowId } = leadRunStartOptions(input);
  await (await temporal.env().client.workflow.start(WORKFLOW_TYPES.leadRun, { taskQueue: WORKFLOW_TASK_QUEUE, workflowId, args: [input] })).result();
  // Visibility lags behind the runs.
  await waitFor(async () => (await temporal.env().client.workflow.count(`${SA_RUN_STATUS.name} = 'completed'`)).count >= 2);

  const bob = await deerflow(['runs', 'list', '--user', 'bob', '--json']);
  expect(bob.stderr).not.toMatch(/deerflow:/);
  expect(bob.code).toBe(0);
  expect(RunsListJsonOutputSchema.parse(JSON.parse(bob.stdout)).runs).toEqual([
    expect.objectContaining({ workflow_id: workflowId, thread_id: 'runs-b', run_id: 'run-2', user_id: 'bob', agent: 'default', status: 'completed', execution_status: 'COMPLETED' }),
  ]);

  const completed = RunsListJsonOutputSchema.parse(JSON.parse((await deerflow(['runs', 'list', '--status', 'completed', '--json'])).stdout));
  expect(completed.runs.map((r) => r.thread_id).sort()).toEqual(['runs-a', 'runs-b']);

  const byThread = await deerflow(['runs', 'list', '--thread', 'runs-a']);
  expect(byThread.code).toBe(0);
  expect(byThread.stdout.trim().split('\n')).toEqual([expect.stringMatching(/^completed\s+thread=runs-a {2}run=run-1 {2}user=alice {2}agent=default {2}started=/)]);

  const show = await deerflow(['runs', 'show', 'run-2', '--thread', 'runs-b', '--json']);
  expect(show.code).toBe(0);
  const shown = RunShowJsonOutputSchema.parse(JSON.parse(show.stdout));
  expect(shown).toMatchObject({ workflow_id: workflowId, execution_status: 'COMPLETED', state: { runId: 'run-2', threadId: 'runs-b', status: 'completed', finalMessageBrief: 'hello' } });

  const showText = await deerflow(['runs', 'show', 'run-1', '--thread', 'runs-a']);
  expect(showText.stdout).toContain('run run-1 in thread runs-a (lead-run:runs-a:run-1): completed, execution COMPLETED');
  expect(showText.stdout).toContain('final message: hello');
});

test('runs refuses values unsafe in a visibility query, unknown statuses and runs, and a missing TEMPORAL_ADDRESS', async () => {
  const injected = await deerflow(['runs', 'list', '--user', "x' OR WorkflowType != '"]);
  expect(injected.code).toBe(2);
  expect(injected.stderr).toContain('--user: must be 1-128 characters');

  const status = await deerflow(['runs', 'list', '--status', 'done']);
  expect(status.code).toBe(2);
  expect(status.stderr).toContain('--status: must be one of running, waiting_for_answer, completed');

  const missing = await deerflow(['runs', 'show', 'nope', '--thread', 'runs-none']);
  expect(missing.code).toBe(1);
  expect(missing.stderr).toContain('no run nope in thread runs-none');

  const local = await runCli(['runs', 'list'], { cwd: dir });
  expect(local.code).toBe(2);
  expect(local.stderr).toContain('deerflow runs needs TEMPORAL_ADDRESS');
});
