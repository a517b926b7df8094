import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { BatchJsonOutputSchema } from '../../src/contracts';
import { runCli } from './run-cli';

let dir: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-batch-'));
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

const BATCHES_ON = { enabled: true, poll_interval_seconds: 0.1, max_attempts: 2 };

/** Item N answers `result N`; item 3 fails on every attempt. */
const SCENARIO = {
  subagents: [
    { match: 'Item 3:', turns: [{ error: '400 always broken' }] },
    ...[1, 2, 4, 5].map((n) => ({ match: `Item ${n}:`, turns: [{ content: `result ${n}` }] })),
  ],
};

function writeSetup(options: { batches?: Record<string, unknown>; scenario?: unknown; items: string }): { config: string; items: string } {
  writeFileSync(join(dir, 'scenario.yaml'), stringify(options.scenario ?? SCENARIO));
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    stringify({ models: [{ name: 'demo', provider: 'scripted', script: './scenario.yaml' }], subagent_batches: options.batches ?? BATCHES_ON }),
  );
  const items = join(dir, 'items.jsonl');
  writeFileSync(items, options.items);
  return { config, items };
}

/** Five items; the blank line does not count (index = position among non-blank lines). */
const FIVE_ITEMS = [
  '{"prompt": "Item 1: first"}',
  '{"prompt": "Item 2: second", "acceptance_criteria": ["say result 2"]}',
  '',
  '{"prompt": "Item 3: third"}',
  '{"prompt": "Item 4: fourth"}',
  '{"prompt": "Item 5: fifth"}',
].join('\n');

const ANSI = '\x1b';

test('deerflow batch --json: one JSON object with every item in file order, the failing one after 2 attempts', async () => {
  const { config, items } = writeSetup({ items: FIVE_ITEMS });
  const result = await runCli(['batch', '--json', '--config', config, '--subagent', 'general-purpose', items], { cwd: dir });
  expect(result.code).toBe(1);
  const output = BatchJsonOutputSchema.parse(JSON.parse(result.stdout));
  const done = (n: number) => ({ index: n - 1, status: 'completed', attempts: 1, stop_reason: null, result: `result ${n}`, error: null });
  expect(output).toEqual({
    batch_id: expect.stringMatching(/^batch_/),
    status: 'completed',
    counts: { pending: 0, running: 0, completed: 4, failed: 1, cancelled: 0, timed_out: 0 },
    items: [
      done(1),
      done(2),
      { index: 2, status: 'failed', attempts: 2, stop_reason: null, result: null, error: expect.stringContaining('400 always broken') },
      done(4),
      done(5),
    ],
  });
  expect(output.items[2]?.error).toContain('attempt 2 of 2');
  // Logs and the link go to stderr; no progress lines there when it is not a terminal.
  expect(result.stderr).toMatch(/Temporal Web: http:\/\/127\.0\.0\.1:\d+\/namespaces\/default\/workflows\/batch%3Abatch_/);
  expect(result.stderr).not.toMatch(/done \(\d+%\)/);
}, 120_000);

test('deerflow batch without a terminal: plain progress lines on stderr, the summary on stdout', async () => {
  const { config, items } = writeSetup({ items: FIVE_ITEMS });
  const result = await runCli(['batch', '--config', config, '--subagent', 'general-purpose', '--max-running', '2', items], { cwd: dir });
  expect(result.code).toBe(1);
  expect(result.stdout).not.toContain(ANSI);
  expect(result.stderr).not.toContain(ANSI);

  const progress = result.stderr.split('\n').filter((line) => /^batch \d+\/5 done/.test(line));
  expect(progress.length).toBeGreaterThanOrEqual(2);
  for (const line of progress) expect(line).toMatch(/^batch \d\/5 done \(\d+%\): \d completed, \d failed, \d running, \d queued; (-|\d+\.\d+) items\/s, ETA \S+$/);
  expect(progress[progress.length - 1]).toMatch(/^batch 5\/5 done \(100%\): 4 completed, 1 failed, 0 running, 0 queued; .* ETA 0s$/);

  const summary = result.stdout.trim().split('\n');
  expect(summary[0]).toMatch(/^batch batch_\S+ completed: 5 items, 4 completed, 1 failed, 0 timed out, 0 cancelled$/);
  expect(summary[1]).toBe('failed items:');
  // Item 3 is on line 4 of the file (after the blank line); unkeyed items are keyed by position.
  expect(summary[2]).toMatch(/^ {2}000003 \(line 4\): failed: .*400 always broken \(attempt 2 of 2\)$/);
  expect(summary[3]).toMatch(/^Temporal Web: http:\/\/127\.0\.0\.1:\d+\//);
}, 120_000);

test('a line that is not JSON: exit 2 naming FILE:LINE, before anything is started', async () => {
  const { config } = writeSetup({ items: '{"prompt": "Item 1: a"}\n{"prompt": "Item 2: b"}\n{"prompt": "Item 3: c"\n' });
  const result = await runCli(['batch', '--config', config, '--subagent', 'general-purpose', 'items.jsonl'], { cwd: dir, timeoutMs: 30_000 });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toMatch(/^items\.jsonl:3: not valid JSON/m);
  expect(result.stderr).not.toContain('starting the embedded Temporal dev server');
  expect(existsSync(join(dir, '.deerflow'))).toBe(false);
});

test('a blank prompt: exit 2 naming its line, nothing started', async () => {
  const { config } = writeSetup({ items: '{"prompt": "Item 1: a"}\n\n{"prompt": "   "}\n' });
  const result = await runCli(['batch', '--config', config, '--subagent', 'general-purpose', 'items.jsonl'], { cwd: dir });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('Invalid batch, nothing was started:\nitems.jsonl:3: prompt: must not be empty\n');
}, 120_000);

test('batches turned off: exit 2 with the subagent_batches.enabled message', async () => {
  const { config, items } = writeSetup({ batches: { enabled: false }, items: FIVE_ITEMS });
  const result = await runCli(['batch', '--config', config, '--subagent', 'general-purpose', items], { cwd: dir });
  expect(result.code).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toContain('subagent_batches.enabled: batches are turned off (set it to true in config.yaml)');
}, 120_000);

test.each([
  [['--subagent', 'general-purpose', '--max-live', '0'], '--max-live: must be a positive integer'],
  [['--subagent', 'general-purpose', '--max-running', 'lots'], '--max-running: must be a positive integer'],
  [[], '--subagent: is required'],
  [['--subagent', 'general-purpose', '--model', 'nope'], '--model: "nope" is not a configured model (configured: demo)'],
])('bad flags %j: exit 2 naming the flag', async (flags, message) => {
  const { config } = writeSetup({ items: FIVE_ITEMS });
  const result = await runCli(['batch', '--config', config, ...flags, 'items.jsonl'], { cwd: dir, timeoutMs: 30_000 });
  expect(result.code).toBe(2);
  expect(result.stderr).toContain(message);
});

test('Ctrl-C while waiting cancels the batch, reports the counts and exits 130', async () => {
  const { config, items } = writeSetup({
    scenario: { subagents: [{ match: '*', turns: [{ content: 'too late', delay_ms: 60_000 }] }] },
    items: '{"prompt": "a"}\n{"prompt": "b"}\n{"prompt": "c"}\n',
  });
  const result = await runCli(['batch', '--json', '--config', config, '--subagent', 'general-purpose', items], {
    cwd: dir,
    interruptWhen: (stderr) => stderr.includes(' items for general-purpose'),
  });
  expect(result.code).toBe(130);
  const output = BatchJsonOutputSchema.parse(JSON.parse(result.stdout));
  expect(output.status).toBe('cancelled');
  expect(output.counts).toEqual({ pending: 0, running: 0, completed: 0, failed: 0, cancelled: 3, timed_out: 0 });
  expect(output.items.map((i) => [i.index, i.status, i.result])).toEqual([
    [0, 'cancelled', null],
    [1, 'cancelled', null],
    [2, 'cancelled', null],
  ]);
  expect(result.stderr).toContain('interrupted: cancelling batch');
  expect(result.stderr).toContain('cancelled 3 item(s): 0 completed, 0 failed, 0 timed out, 3 cancelled');
}, 120_000);
