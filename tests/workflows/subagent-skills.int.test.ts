import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startHarness, type Harness } from '../support/harness';
import { createTestEnv } from '../support/temporal-env';

let env: TestWorkflowEnvironment;
let harness: Harness;
// Kept across harnesses: the last test reopens the same store and skills with another config.
const dir = mkdtempSync(join(tmpdir(), 'deerflow-test-'));

function writeSkill(dataDir: string, folder: string[], name: string, description: string, body: string): void {
  const dir = join(dataDir, ...folder, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'SKILL.md'), `---\nname: ${name}\ndescription: ${description}\n---\n${body}\n`);
}

beforeAll(async () => {
  env = await createTestEnv();
  harness = await startHarness(
    env,
    {
      lead: [{ tool_calls: [{ name: 'task', args: { description: 'Use skills', prompt: 'Read the skill', subagent_type: 'general-purpose' } }] }, { content: 'ok' }],
      subagents: [
        {
          match: 'Read the skill',
          turns: [{ tool_calls: [{ name: 'read_file', args: { path: '/mnt/skills/user/pdf-tools/SKILL.md' } }] }, { content: 'read it' }],
        },
      ],
    },
    { agents: { reader: { skills: ['pdf-tools'] } } },
    { dir },
  );
  const dataDir = harness.loaded.config.store.data_dir;
  writeSkill(dataDir, ['users', 'alice', 'skills'], 'pdf-tools', 'Alice fills PDF forms', 'PDF-TOOLS-BODY');
  writeSkill(dataDir, ['skills', 'public'], 'summarize', 'Summarize long documents', 'SUMMARIZE-BODY');
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

/** The system prompt of the subagent request of one run (requests are recorded in order). */
function lastSubagentSystemPrompt(): string {
  const requests = harness.recorder.requests.filter((r) => !r.tags.includes('lead'));
  return requests[requests.length - 2]?.messages.find((m) => m.type === 'system')?.text ?? '';
}

test("a subagent sees its user's skills as metadata and can read one from /mnt/skills", async () => {
  const { state } = await harness.run({ message: 'go', threadId: 'skills-alice', runId: 'run-1', userId: 'alice' });
  expect(state.tasks[0]?.status).toBe('completed');
  const prompt = lastSubagentSystemPrompt();
  expect(prompt).toContain('<name>pdf-tools</name>');
  expect(prompt).toContain('<name>summarize</name>');
  expect(prompt).toContain('/mnt/skills/user/pdf-tools/SKILL.md');
  // Bodies are not in the prompt; they are read on demand.
  expect(prompt).not.toContain('PDF-TOOLS-BODY');
  const steps = await harness.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.step'] });
  expect(steps.map((e) => (e.payload as { text: string }).text).join('\n')).toContain('PDF-TOOLS-BODY');
});

test("another user never sees a user's skills", async () => {
  const { state } = await harness.run({ message: 'go', threadId: 'skills-bob', runId: 'run-2', userId: 'bob' });
  const prompt = lastSubagentSystemPrompt();
  expect(prompt).toContain('<name>summarize</name>');
  expect(prompt).not.toContain('pdf-tools');
  // The path does not exist for bob: the read fails as a tool error and the subagent carries on.
  expect(state.tasks[0]?.status).toBe('completed');
  const transcript = await harness.stores.messages.listMessages('skills-bob');
  expect(transcript.map((r) => mapStoredMessageToChatMessage(r.message)).filter((m) => ToolMessage.isInstance(m))).toHaveLength(1);
});

test("the lead agent's skills snapshot is intersected with the subagent's (parent list wins here)", async () => {
  await harness.run({ message: 'go', threadId: 'skills-reader', runId: 'run-3', userId: 'alice', agentName: 'reader' });
  const prompt = lastSubagentSystemPrompt();
  expect(prompt).toContain('<name>pdf-tools</name>');
  expect(prompt).not.toContain('<name>summarize</name>');
});

test("batch_task items get the lead agent's skills snapshot, not every skill", async () => {
  await harness.close();
  // Same store and skills, a lead that starts a one-item batch, batches on.
  harness = await startHarness(
    env,
    {
      lead: [
        { tool_calls: [{ name: 'batch_task', args: { title: 'one', subagent_type: 'general-purpose', items: [{ key: 'a', prompt: 'Batch item: look' }] } }] },
        { content: 'ok' },
      ],
      subagents: [{ match: '*', turns: [{ content: 'looked' }] }],
    },
    { agents: { reader: { skills: ['pdf-tools'] } }, subagent_batches: { enabled: true, poll_interval_seconds: 0.2 } },
    { dir },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'skills-batch', runId: 'run-4', userId: 'alice', agentName: 'reader' });
  expect(state.batches.map((b) => b.status)).toEqual(['completed']);
  const item = harness.recorder.requests.filter((r) => !r.tags.includes('lead')).at(-1);
  const prompt = item?.messages.find((m) => m.type === 'system')?.text ?? '';
  expect(prompt).toContain('<name>pdf-tools</name>');
  expect(prompt).not.toContain('<name>summarize</name>');
});
