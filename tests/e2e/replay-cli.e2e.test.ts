import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplayJsonOutputSchema } from '../../src/contracts';
import { HISTORIES_DIR, readHistory, readManifest } from '../replay/fixtures';
import { useTemporal } from '../support/use-temporal';
import { runCli } from './run-cli';

const temporal = useTemporal();
let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-replay-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const demo = readManifest().find((f) => f.file === 'demo-lead-run.json')!;

test('replay --file: a recorded history replays (exit 0); one whose activity type changed diverges (exit 1, naming both)', async () => {
  const ok = await runCli(['replay', '--file', join(HISTORIES_DIR, demo.file)], { cwd: dir });
  expect(ok.stderr).not.toMatch(/deerflow:/);
  expect(ok.code).toBe(0);
  expect(ok.stdout).toMatch(new RegExp(`^leadRunWorkflow ${demo.workflowId} \\(run [0-9a-f-]+, \\d+ events\\): the current workflow code reproduces it\\n$`));

  // An older version of the code scheduled another activity where today's schedules runSubagent.
  const history = readHistory(demo) as { events: Array<Record<string, { activityType?: { name: string } } | undefined>> };
  history.events.find((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent')!.activityTaskScheduledEventAttributes!.activityType = {
    name: 'runSubagentV0',
  };
  const tampered = join(dir, 'tampered.json');
  writeFileSync(tampered, JSON.stringify(history));
  const diverged = await runCli(['replay', '--file', tampered, '--json'], { cwd: dir });
  expect(diverged.code).toBe(1);
  expect(ReplayJsonOutputSchema.parse(JSON.parse(diverged.stdout))).toEqual({
    workflow_id: demo.workflowId,
    run_id: expect.any(String),
    workflow_type: 'leadRunWorkflow',
    source: 'file',
    events: history.events.length,
    outcome: 'diverged',
    error: expect.stringContaining("Activity type of scheduled event 'runSubagentV0' does not match activity type of activity command 'runSubagent'"),
  });
});

test('replay refuses a missing file, a file that is not a history, and no history at all (exit 2, naming the problem)', async () => {
  const notJson = join(dir, 'broken.json');
  writeFileSync(notJson, '{"events": [');
  const notHistory = join(dir, 'other.json');
  writeFileSync(notHistory, '{"runs": []}');
  const cases: Array<[readonly string[], string]> = [
    [['replay', '--file', join(dir, 'missing.json')], 'missing.json: no such file'],
    [['replay', '--file', notJson], 'broken.json: not valid JSON'],
    [['replay', '--file', notHistory], 'other.json: not a workflow history (expected { "events": [ ... ] })'],
    [['replay'], 'workflow-id: give a workflow id to fetch from the cluster, or --file HISTORY.json'],
  ];
  for (const [args, message] of cases) {
    const result = await runCli(args, { cwd: dir });
    expect({ args, code: result.code, stderr: result.stderr }).toEqual({ args, code: 2, stderr: expect.stringContaining(message) });
  }
});

test('replay WORKFLOW_ID fetches a live history from the cluster and replays it (exit 0); an unknown id is a usage error', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [{ name: 'task', args: { description: 'Look', prompt: 'Look around', subagent_type: 'general-purpose' } }] }, { content: 'done' }],
    subagents: [{ match: '*', turns: [{ content: 'looked' }] }],
  });
  const { workflowId } = await harness.run({ message: 'go', threadId: 'replay-live', runId: 'run-1' });
  const { runId } = await temporal.env().client.workflow.getHandle(workflowId).describe();
  const cluster = { cwd: dir, temporalAddress: temporal.env().address, env: { TEMPORAL_NAMESPACE: temporal.env().namespace ?? 'default', DATABASE_URL: '' } };

  const live = await runCli(['replay', workflowId, '--json'], cluster);
  expect(live.stderr).not.toMatch(/deerflow:/);
  expect(live.code).toBe(0);
  expect(ReplayJsonOutputSchema.parse(JSON.parse(live.stdout))).toMatchObject({ workflow_id: workflowId, run_id: runId, source: 'cluster', outcome: 'replayed', error: null });

  const unknown = await runCli(['replay', 'lead-run:nobody:run-1'], cluster);
  expect(unknown.code).toBe(2);
  expect(unknown.stderr).toContain('lead-run:nobody:run-1: workflow not found');
});
