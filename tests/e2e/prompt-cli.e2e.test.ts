import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { buildLeadRunInput } from '../../src/client/build-run-input';
import { TASK_TOOL_HEADING } from '../../src/cli/prompt-command';
import { loadConfig } from '../../src/config';
import { taskToolSpec } from '../../src/prompts';
import { leadTaskToolOptions, renderLeadSystemPrompt } from '../../src/registry';
import { runCli, type CliResult } from './run-cli';

// `deerflow prompt ...` spawned for real: the printed lead prompt is the one leadModelStep renders,
// with the limits a run would resolve, and the limit-1 variant differs only in parallel elements.

let dir: string;
let configPath: string;
const outputs = new Map<string, CliResult>();

const cli = (args: readonly string[]): Promise<CliResult> => runCli(args, { cwd: dir });
const result = (key: string): CliResult => {
  const r = outputs.get(key);
  if (r === undefined) throw new Error(`no output for ${key}`);
  return r;
};

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-prompt-'));
  configPath = join(dir, 'config.yaml');
  writeFileSync(
    configPath,
    stringify({
      models: [{ name: 'demo', provider: 'scripted', script: './scenario.yaml' }],
      sandbox: { allow_host_bash: true },
      subagent_runtime: { max_running: 3 },
      subagents: { custom_agents: { researcher: { description: 'Digs through sources\nsecond line', system_prompt: 'You research.' } } },
    }),
  );
  const runs: Record<string, readonly string[]> = {
    one: ['prompt', 'lead', '--config', configPath, '--max-concurrent', '1'],
    three: ['prompt', 'lead', '--config', configPath, '--max-concurrent', '3'],
    nine: ['prompt', 'lead', '--config', configPath, '--max-concurrent', '9', '--max-total', '99'],
    bash: ['prompt', 'subagent', 'bash', '--config', configPath],
    unknown: ['prompt', 'subagent', 'nope', '--config', configPath],
    badConcurrent: ['prompt', 'lead', '--config', configPath, '--max-concurrent', 'two'],
    badTotal: ['prompt', 'lead', '--config', configPath, '--max-total', '0'],
  };
  // Independent processes: start them together to keep the suite short.
  const done = await Promise.all(Object.entries(runs).map(async ([key, args]) => [key, await cli(args)] as const));
  for (const [key, r] of done) outputs.set(key, r);
});

afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

/** Lines only in `a` and lines only in `b`, by longest common subsequence. */
function lineDiff(a: readonly string[], b: readonly string[]): { onlyA: string[]; onlyB: string[] } {
  const lcs: number[][] = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i]![j] = a[i] === b[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
    }
  }
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
    } else if (lcs[i + 1]![j]! >= lcs[i]![j + 1]!) onlyA.push(a[i++]!);
    else onlyB.push(b[j++]!);
  }
  return { onlyA: [...onlyA, ...a.slice(i)], onlyB: [...onlyB, ...b.slice(j)] };
}

const perResponse = (text: string): number[] => [...text.matchAll(/MAXIMUM (\d+) `task` CALLS PER RESPONSE/g)].map((m) => Number(m[1]));
const perRun = (text: string): number[] => [...text.matchAll(/MAXIMUM (\d+) `task` CALLS PER RUN/g)].map((m) => Number(m[1]));
const withoutDate = (text: string): string => text.replace(/<current_date>[^<]*<\/current_date>/, '<current_date/>');

test('prompt lead succeeds and prints the system message, then the task tool description under its heading', () => {
  for (const key of ['one', 'three', 'nine']) {
    expect(result(key).stderr).toBe('');
    expect(result(key).code).toBe(0);
    const [system, tool] = result(key).stdout.split(`\n\n${TASK_TOOL_HEADING}\n`);
    expect(system).toMatch(/^You are DeerFlow/);
    expect(system).toMatch(/^<subagent_system>$/m);
    // The lead's own tools are listed: what it can do without a subagent.
    expect(system).toMatch(/^<direct_work>$/m);
    expect(system).toContain('- `read_file`: read a text file');
    expect(system).toContain('- `web_fetch`: fetch one public web page as Markdown');
    expect(tool).toMatch(/^Hand one bounded task to a specialized subagent/);
  }
});

test('the printed text is exactly what leadModelStep renders for the same config and run limits', () => {
  const loaded = loadConfig({ path: configPath, cwd: dir });
  const input = buildLeadRunInput(loaded.config, { message: 'x', threadId: 't', runId: 'r', maxConcurrent: 9, maxTotal: 99 });
  const [system, tool] = result('nine').stdout.split(`\n\n${TASK_TOOL_HEADING}\n`);
  expect(withoutDate(system ?? '')).toBe(withoutDate(renderLeadSystemPrompt(loaded.config, { ...input, clarification: true }, 'any date')));
  const options = leadTaskToolOptions(loaded.config, input);
  expect(options).not.toBeNull();
  if (options !== null) expect(tool).toBe(`${taskToolSpec(options).function.description}\n`);
});

test('the printed numbers are the run limits: --max-concurrent 9 with max_running 3 prints 3; --max-total 99 prints 50', () => {
  const loaded = loadConfig({ path: configPath, cwd: dir });
  const limits = (maxConcurrent: number, maxTotal?: number) =>
    buildLeadRunInput(loaded.config, { message: 'x', threadId: 't', runId: 'r', maxConcurrent, maxTotal }).limits;
  expect(perResponse(result('nine').stdout)).toEqual([limits(9, 99).maxConcurrent]);
  expect(perRun(result('nine').stdout)).toEqual([limits(9, 99).maxTotal]);
  expect(limits(9, 99)).toMatchObject({ maxConcurrent: 3, maxTotal: 50 });
  expect(perResponse(result('three').stdout)).toEqual([limits(3).maxConcurrent]);
  expect(perResponse(result('one').stdout)).toEqual([limits(1).maxConcurrent]);
  expect(perRun(result('one').stdout)).toEqual([limits(1).maxTotal]);
});

test('--max-concurrent 1 and 3 differ only in parallel, multi-batch and limit-number lines', () => {
  const one = result('one').stdout.split('\n');
  const three = result('three').stdout.split('\n');
  const { onlyA: onlyOne, onlyB: onlyThree } = lineDiff(one, three);
  // Blank lines only separate the blocks that come and go.
  const changedOne = onlyOne.filter((l) => l.trim() !== '');
  const changedThree = onlyThree.filter((l) => l.trim() !== '');
  expect(changedThree.length).toBeGreaterThan(10);
  expect(changedOne.length).toBeGreaterThan(5);

  // The limit-3 side: every line is about parallel work or batches, or carries the limit 3.
  for (const line of changedThree) {
    expect([line, /parallel|batch/i.test(line) || /MAXIMUM 3 `task` CALLS PER RESPONSE|at most 3 `task` calls per response/.test(line)]).toEqual([line, true]);
  }
  // The limit-1 side: every line carries the limit 1 or says parallel dispatch does not help.
  for (const line of changedOne) {
    const ok = /MAXIMUM 1 `task` CALLS PER RESPONSE|1 `task` call per response/.test(line) || /parallel dispatch (saves no time|cannot make anything faster)/.test(line);
    expect([line, ok]).toEqual([line, true]);
  }
  // The limit-1 output keeps no batch and no parallel benefit at all.
  expect(result('one').stdout.split(TASK_TOOL_HEADING)[0]).not.toMatch(/batch/i);
  // The per-run limit and the catalog are the same in both.
  expect(perRun(result('one').stdout)).toEqual(perRun(result('three').stdout));
  expect(result('one').stdout).toContain('- **researcher**: Digs through sources\n');
});

test('prompt subagent bash prints its system prompt with the report contract', () => {
  const r = result('bash');
  expect(r.code).toBe(0);
  expect(r.stdout).toContain('Execute commands one at a time when they depend on each other');
  expect(r.stdout).toContain('<report_contract>');
  expect(r.stdout.trimEnd().endsWith('</report_contract>')).toBe(true);
});

test('usage errors exit 2 with a message naming the problem', () => {
  expect(result('unknown').code).toBe(2);
  expect(result('unknown').stderr).toContain("Unknown subagent type 'nope'. Available: general-purpose, bash, researcher");
  expect(result('unknown').stdout).toBe('');
  expect(result('badConcurrent').code).toBe(2);
  expect(result('badConcurrent').stderr).toContain("--max-concurrent must be a positive integer, got 'two'");
  expect(result('badTotal').code).toBe(2);
  expect(result('badTotal').stderr).toContain("--max-total must be a positive integer, got '0'");
});
