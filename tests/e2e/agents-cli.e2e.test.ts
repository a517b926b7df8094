import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from './run-cli';

let dir: string;
let config: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-agents-'));
  config = join(dir, 'config.yaml');
  writeFileSync(config, 'subagents:\n  custom_agents:\n    researcher:\n      description: Researches\n      system_prompt: You research.\n');
});

afterAll(() => rmSync(dir, { recursive: true, force: true }));

const cli = (...args: string[]) => runCli(['agents', ...args, '--config', config], { cwd: dir, timeoutMs: 30_000 });

interface Row {
  name: string;
  source: string;
  status: string;
}

async function rows(): Promise<Row[]> {
  const result = await cli('list', '--json');
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as Row[];
}

test('bad input is rejected with the field named and nothing is stored', async () => {
  const bad = await cli('add', 'auditor', '--description', 'Audits', '--system-prompt', 'You audit.', '--max-turns', '0');
  expect(bad.code).toBe(2);
  expect(bad.stderr).toContain('max_turns: ');
  expect(bad.stderr).toContain('nothing was stored');
  const badName = await cli('add', 'Bad Name', '--description', 'x', '--system-prompt', 'y');
  expect(badName.code).toBe(2);
  expect(badName.stderr).toContain('name: ');
  expect((await rows()).map((r) => r.name)).toEqual(['general-purpose', 'bash', 'researcher']);
});

test('add, list with status (active, shadowed, disabled), show, enable, remove', async () => {
  expect((await cli('add', 'auditor', '--description', 'Audits ledgers', '--system-prompt', 'You audit.', '--max-turns', '12')).code).toBe(0);
  expect((await cli('add', 'researcher', '--description', 'Shadow', '--system-prompt', 'Hijack')).code).toBe(0);
  const duplicate = await cli('add', 'auditor', '--description', 'again', '--system-prompt', 'again');
  expect(duplicate.code).toBe(2);
  expect(duplicate.stderr).toContain('auditor');

  const listed = await rows();
  expect(listed.filter((r) => r.source === 'managed').map((r) => [r.name, r.status])).toEqual([
    ['auditor', 'active'],
    ['researcher', 'shadowed by the config definition'],
  ]);
  expect(listed.find((r) => r.name === 'bash')?.status).toContain('unavailable');

  expect((await cli('disable', 'auditor')).stdout).toContain("'auditor' is disabled");
  expect((await rows()).find((r) => r.name === 'auditor')?.status).toBe('disabled');
  expect((await cli('enable', 'auditor')).stdout).toContain("'auditor' is active");

  const shown = await cli('show', 'auditor');
  expect(shown.code).toBe(0);
  expect(shown.stdout).toContain('maxTurns: 12');
  expect(shown.stdout).toContain('system_prompt: You audit.');

  expect((await cli('remove', 'auditor')).code).toBe(0);
  const again = await cli('remove', 'auditor');
  expect(again.code).toBe(2);
  expect((await rows()).map((r) => r.name)).not.toContain('auditor');
});

test('stored lead agents: set with an allowlist, list, remove', async () => {
  const set = await cli('lead', 'set', 'curator', '--allowed-subagents', 'general-purpose,researcher', '--max-turns', '8');
  expect(set.code).toBe(0);
  expect(set.stdout).toContain('allowed_subagents: ["general-purpose","researcher"]');
  const none = await cli('lead', 'set', 'solo', '--allowed-subagents', 'none');
  expect(none.stdout).toContain('allowed_subagents: []');
  const listed = await cli('lead', 'list');
  expect(listed.stdout).toContain('name: curator');
  expect(listed.stdout).toContain('name: solo');
  expect((await cli('lead', 'remove', 'solo')).code).toBe(0);
  expect((await cli('lead', 'remove', 'solo')).code).toBe(2);
});
