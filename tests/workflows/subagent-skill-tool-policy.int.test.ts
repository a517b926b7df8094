import { cpSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ThreadWorkspace } from '../../src/tools';
import { startHarness, type Harness } from '../support/harness';
import { createTestEnv } from '../support/temporal-env';

let env: TestWorkflowEnvironment;
let harness: Harness;

// Alice's own `pdf` skill says `allowed-tools: [read_file, bash]`; the public `pdf` skill (what
// everyone else sees) has no list.
const FIXTURE_DATA_DIR = join(__dirname, '../fixtures/skills/data-dir');
const OUTPUT = '/mnt/user-data/outputs/form.txt';

beforeAll(async () => {
  env = await createTestEnv();
  harness = await startHarness(env, {
    lead: [{ tool_calls: [{ name: 'task', args: { description: 'Fill the form', prompt: 'Fill the PDF form', subagent_type: 'general-purpose' } }] }, { content: 'ok' }],
    subagents: [
      {
        match: 'Fill the PDF form',
        turns: [
          // Each user reads the pdf skill they see, then tries to write the result.
          { tool_calls: [{ name: 'read_file', args: { path: '/mnt/skills/user/pdf/SKILL.md' } }, { name: 'read_file', args: { path: '/mnt/skills/public/pdf/SKILL.md' } }] },
          { tool_calls: [{ name: 'write_file', args: { path: OUTPUT, content: 'filled' } }] },
          { content: 'done' },
        ],
      },
    ],
  });
  cpSync(FIXTURE_DATA_DIR, harness.loaded.config.store.data_dir, { recursive: true });
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await env?.teardown();
});

/** Names of the tools bound to each subagent request of the last run, in order. */
function subagentTools(requests: number): string[][] {
  return harness.recorder.requests
    .filter((r) => !r.tags.includes('lead'))
    .slice(-requests)
    .map((r) => (r.tools as string[]).filter((t) => ['bash', 'read_file', 'write_file'].includes(t)).sort());
}

async function writeFileStep(runId: string): Promise<string | undefined> {
  const steps = await harness.stores.events.listEvents({ runId, eventTypes: ['subagent.step'] });
  const payloads = steps.map((e) => e.payload as { kind: string; tool_name?: string | null; text: string });
  return payloads.find((p) => p.kind === 'tool' && p.tool_name === 'write_file')?.text;
}

test('an active skill that omits write_file removes it from the requests and refuses the call', async () => {
  const { state } = await harness.run({ message: 'go', threadId: 'policy-alice', runId: 'run-alice', userId: 'alice' });
  expect(state.tasks[0]?.status).toBe('completed');

  expect(subagentTools(3)).toEqual([
    ['bash', 'read_file', 'write_file'],
    ['bash', 'read_file'],
    ['bash', 'read_file'],
  ]);
  expect(await writeFileStep('run-alice')).toContain("Error: tool 'write_file' is not allowed while skill 'pdf' is active (allowed_tools). Allowed tools now: bash, read_file, tool_search.");
  const host = await new ThreadWorkspace(harness.loaded.config.store.data_dir, 'policy-alice').resolve(OUTPUT);
  expect(existsSync(host)).toBe(false);
}, 60_000);

test('a skill without allowed_tools restricts nothing', async () => {
  // Bob has no pdf skill of his own: his user path fails to read, the public pdf skill has no list.
  const { state } = await harness.run({ message: 'go', threadId: 'policy-bob', runId: 'run-bob', userId: 'bob' });
  expect(state.tasks[0]?.status).toBe('completed');

  expect(subagentTools(3)).toEqual([
    ['bash', 'read_file', 'write_file'],
    ['bash', 'read_file', 'write_file'],
    ['bash', 'read_file', 'write_file'],
  ]);
  expect(await writeFileStep('run-bob')).not.toContain('not allowed');
  const host = await new ThreadWorkspace(harness.loaded.config.store.data_dir, 'policy-bob').resolve(OUTPUT);
  expect(existsSync(host)).toBe(true);
}, 60_000);
