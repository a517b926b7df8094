import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { RunJsonOutputSchema } from '../../src/contracts';
import { runCli } from './run-cli';

let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-events-'));
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('deerflow events pages one run\'s stored events, per task and after a seq', async () => {
  writeFileSync(
    join(dir, 'scenario.yaml'),
    stringify({
      lead: [{ tool_calls: [1, 2].map((n) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}`, subagent_type: 'general-purpose' } })) }, { content: 'done' }],
      subagents: [{ match: '*', turns: [{ tool_calls: [{ name: 'ls', args: { path: '.' } }] }, { content: 'listed' }] }],
    }),
  );
  const config = join(dir, 'config.yaml');
  writeFileSync(config, stringify({ models: [{ name: 'm', provider: 'scripted', script: './scenario.yaml' }] }));
  const run = await runCli(['run', '--json', '--config', config, 'go'], { cwd: dir });
  expect(run.code).toBe(0);
  const report = RunJsonOutputSchema.parse(JSON.parse(run.stdout));

  const all = await runCli(['events', report.run_id, '--config', config, '--json'], { cwd: dir, timeoutMs: 30_000 });
  const rows = all.stdout.trim().split('\n').map((l) => JSON.parse(l) as { seq: number; event: string; taskId: string });
  expect(rows).toHaveLength(2 * (1 + 3 + 1));

  const taskId = report.tasks[1]!.task_id;
  const firstPage = await runCli(['events', report.run_id, '--config', config, '--json', '--task', taskId, '--limit', '2'], { cwd: dir, timeoutMs: 30_000 });
  const page = firstPage.stdout.trim().split('\n').map((l) => JSON.parse(l) as { seq: number; taskId: string });
  expect(page.map((r) => r.taskId)).toEqual([taskId, taskId]);
  const next = /more: --after (\d+)/.exec(firstPage.stderr)?.[1];
  expect(next).toBe(String(page[1]!.seq));
  const rest = await runCli(['events', report.run_id, '--config', config, '--task', taskId, '--after', next!], { cwd: dir, timeoutMs: 30_000 });
  expect(rest.stdout.trim().split('\n')).toHaveLength(3);
  expect(rest.stdout).toContain('completed');

  const bad = await runCli(['events', report.run_id, '--config', config, '--limit', 'lots'], { cwd: dir, timeoutMs: 30_000 });
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('limit:');
}, 120_000);
