import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { RunJsonOutputSchema } from '../../src/contracts';
import { runCli } from './run-cli';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-cli-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function writeConfig(config: unknown, scenario?: unknown): string {
  if (scenario !== undefined) writeFileSync(join(dir, 'scenario.yaml'), stringify(scenario));
  const path = join(dir, 'config.yaml');
  writeFileSync(path, typeof config === 'string' ? config : stringify(config));
  return path;
}

test('deerflow run --json: two task calls in one response, subagents using bash, usage summed or null', async () => {
  const config = writeConfig(
    {
      models: [{ name: 'demo', provider: 'scripted', script: './scenario.yaml' }],
      sandbox: { allow_host_bash: true },
    },
    {
      lead: [
        {
          tool_calls: [
            { name: 'task', args: { description: 'Sum numbers', prompt: 'One: add 2 and 3 with bash', subagent_type: 'general-purpose' } },
            { name: 'task', args: { description: 'Say hello', prompt: 'Two: echo hello with bash', subagent_type: 'bash' } },
          ],
          usage: { input_tokens: 100, output_tokens: 30 },
        },
        { content: 'Sum is 5 and hello was printed.' },
      ],
      subagents: [
        {
          match: 'One:',
          turns: [
            { tool_calls: [{ name: 'bash', args: { command: 'echo $((2+3))' } }], usage: { input_tokens: 40, output_tokens: 8 } },
            { content: 'The sum is 5 [r1 bash]', usage: { input_tokens: 60, output_tokens: 6 } },
          ],
        },
        { match: 'Two:', turns: [{ tool_calls: [{ name: 'bash', args: { command: 'echo hello' } }] }, { content: 'Printed hello [r1 bash]' }] },
      ],
    },
  );
  const result = await runCli(['run', '--json', '--config', config, '--thread', 'cli-thread', 'add and greet'], { cwd: dir });
  expect(result.stderr).not.toContain('Error');
  expect(result.code).toBe(0);
  const output = RunJsonOutputSchema.parse(JSON.parse(result.stdout));
  expect(output).toMatchObject({ status: 'completed', thread_id: 'cli-thread', final_message: 'Sum is 5 and hello was printed.', stripped_task_calls: 0 });
  expect(output.workflow_id).toBe(`lead-run:cli-thread:${output.run_id}`);
  expect(output.tasks).toEqual([
    expect.objectContaining({
      subagent: 'general-purpose',
      description: 'Sum numbers',
      status: 'completed',
      stop_reason: null,
      model: 'demo',
      token_usage: { input_tokens: 100, output_tokens: 14, total_tokens: 114 },
      result: 'The sum is 5 [r1 bash]',
      error: null,
      attempts: 1,
    }),
    expect.objectContaining({ subagent: 'bash', status: 'completed', token_usage: null, result: 'Printed hello [r1 bash]', attempts: 1 }),
  ]);
  expect(output.events).toEqual({ 'subagent.start': 2, 'subagent.step': 6, 'subagent.end': 2 });
  expect(result.stderr).toMatch(/Temporal Web: http:\/\/127\.0\.0\.1:\d+\/namespaces\/default\/workflows\//);
}, 120_000);

test.each([
  ['wrong type', 'subagents:\n  max_total_per_run: "six"\n', 'subagents.max_total_per_run: expected integer, got string'],
  ['out of range', 'subagents:\n  max_total_per_run: 51\n', 'subagents.max_total_per_run: must be <= 50'],
  ['unknown key', 'subagent_runtime:\n  max_runing: 3\n', 'subagent_runtime.max_runing: unknown key'],
])('a bad config.yaml (%s) exits non-zero with the key path', async (_name, yamlText, line) => {
  const config = writeConfig(yamlText);
  const result = await runCli(['run', '--json', '--config', config, 'hi'], { cwd: dir, timeoutMs: 30_000 });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n').map((l) => l.trim())).toContain(line);
});

test('every problem of a bad config is reported, one line each', async () => {
  const config = writeConfig('subagents:\n  max_total_per_run: 0\n  timeout_seconds: true\nbogus: 1\n');
  const result = await runCli(['worker', '--config', config], { cwd: dir, timeoutMs: 30_000 });
  expect(result.code).toBe(2);
  const lines = result.stderr.trim().split('\n').map((l) => l.trim());
  expect(lines).toEqual(
    expect.arrayContaining([
      'subagents.max_total_per_run: must be >= 1',
      'subagents.timeout_seconds: expected integer, got boolean',
      'bogus: unknown key',
    ]),
  );
});

test('npm start: the bundled demo writes its plan directly, completes two subagent tasks and prints a Web UI link', async () => {
  const result = await runCli(['start'], { cwd: dir, timeoutMs: 120_000 });
  if (result.code !== 0) process.stderr.write(`deerflow start failed:\n${result.stdout}\n${result.stderr}\n`);
  expect(result.code).toBe(0);
  expect(result.stdout).toContain('deerflow demo on the bundled scripted model');
  expect(result.stdout).toMatch(/general-purpose started: Write and count notes/);
  expect(result.stdout).toMatch(/bash → 3/);
  expect(result.stdout).toMatch(/\[0\.0\] lead calls write_file\(/);
  expect(result.stdout).toMatch(/\[0\.0\] write_file completed → OK: wrote \d+ chars to \/mnt\/user-data\/workspace\/plan\.md/);
  expect(result.stdout).toContain('run completed with 1/1 direct tool calls and 2/2 subagent tasks completed');
  expect(result.stdout).toMatch(/Temporal Web: http:\/\/127\.0\.0\.1:\d+\/namespaces\/default\/workflows\/lead-run/);
}, 150_000);
