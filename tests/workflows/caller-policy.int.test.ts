import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mapStoredMessageToChatMessage, ToolMessage } from '@langchain/core/messages';
import { describePostgres } from '../store/postgres-test-database';
import { startHarness, type Harness, type HarnessOptions } from '../support/harness';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const task = (subagent_type: string, prompt: string) => ({ name: 'task', args: { description: `Use ${subagent_type}`, prompt, subagent_type } });

async function toolMessages(h: Harness, threadId: string): Promise<string[]> {
  const transcript = await h.stores.messages.listMessages(threadId);
  return transcript
    .map((r) => mapStoredMessageToChatMessage(r.message))
    .filter((m) => ToolMessage.isInstance(m))
    .map((m) => String(m.content));
}

const subagentsAnswer = [{ match: '*', turns: [{ content: 'done' }] }];

test('an allowlist filters both the lead prompt and execution; a denied call fails and the run goes on', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task('bash', 'list files'), task('general-purpose', 'look around')] }, { content: 'finished' }], subagents: subagentsAnswer },
    { sandbox: { allow_host_bash: true }, agents: { researcher: { allowed_subagents: ['general-purpose'] } } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'policy-list', runId: 'run-1', agentName: 'researcher' });
  expect(state.status).toBe('completed');
  // The denied call is a failed task that never started; the allowed one ran.
  expect(state.tasks.map((t) => [t.subagent, t.status, t.attempts])).toEqual([['bash', 'failed', 0], ['general-purpose', 'completed', 1]]);
  expect(state.tasks[0]?.error).toBe("Unknown subagent type 'bash'. Available: general-purpose");
  const tools = (await toolMessages(harness, 'policy-list')).sort();
  expect(tools).toEqual(['Task Succeeded. Result: done', "Task failed. Error: Unknown subagent type 'bash'. Available: general-purpose"]);

  const [prompt] = harness.recorder.leadSystemPrompts();
  expect(prompt).toContain('**general-purpose**');
  expect(prompt).not.toContain('**bash**');
});

test('allowed_subagents: [] turns delegation off: no routing section, and a task call is refused by caller policy', async () => {
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task('general-purpose', 'try anyway')] }, { content: 'did it myself' }], subagents: subagentsAnswer },
    { agents: { solo: { allowed_subagents: [] } } },
  );
  const { state } = await harness.run({ message: 'go', threadId: 'policy-none', runId: 'run-1', agentName: 'solo' });
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => [t.subagent, t.status, t.attempts])).toEqual([['general-purpose', 'failed', 0]]);
  expect((await toolMessages(harness, 'policy-none'))[0]).toContain(
    "Unknown subagent type 'general-purpose'. Available: none permitted by caller policy",
  );
  const prompts = harness.recorder.leadSystemPrompts();
  expect(prompts).toHaveLength(2);
  for (const prompt of prompts) {
    expect(prompt).not.toContain('Subagent Routing');
    expect(prompt).not.toContain('`task` CALLS PER RESPONSE');
  }
});

test('without a policy every available subagent is listed (null = all)', async () => {
  const harness = await temporal.start({ lead: [{ content: 'hello' }] }, { sandbox: { allow_host_bash: true } });
  await harness.run({ message: 'go', threadId: 'policy-all', runId: 'run-1' });
  const [prompt] = harness.recorder.leadSystemPrompts();
  expect(prompt).toContain('**general-purpose**');
  expect(prompt).toContain('**bash**');
});

test('bash asked for while host bash is off gets the dedicated guidance', async () => {
  const harness = await temporal.start({ lead: [{ tool_calls: [task('bash', 'ls')] }, { content: 'ok' }] }, { sandbox: { allow_host_bash: false } });
  const { state } = await harness.run({ message: 'go', threadId: 'policy-bash', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect((await toolMessages(harness, 'policy-bash'))[0]).toMatch(/^Task failed\. Error: Bash subagent is disabled/);
});

test('the run keeps its policy snapshot when the stored lead agent is edited mid-run; the next run sees the edit', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task('general-purpose', 'Slow: first')] }, { tool_calls: [task('general-purpose', 'Quick: second')] }, { content: 'both done' }],
    subagents: [
      { match: 'Slow:', turns: [{ content: 'first done', delay_ms: 1500 }] },
      { match: 'Quick:', turns: [{ content: 'second done' }] },
    ],
  });
  const h = harness;
  await h.stores.agents.putLeadAgent({ name: 'curator', allowed_subagents: ['general-purpose'] });
  const started = await h.client.startRun({ message: 'go', threadId: 'policy-snapshot', runId: 'run-1', agentName: 'curator' });
  // Wait until the first subagent is running, then revoke delegation for this agent.
  for (let i = 0; i < 100; i++) {
    if ((await h.stores.events.listEvents({ runId: 'run-1', eventTypes: ['subagent.start'] })).length > 0) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await h.stores.agents.putLeadAgent({ name: 'curator', allowed_subagents: [] });
  await started.handle.result();
  const state = await h.client.getState(started.workflowId);
  expect(state.tasks.map((t) => [t.description, t.status])).toEqual([
    ['Use general-purpose', 'completed'],
    ['Use general-purpose', 'completed'],
  ]);

  const next = await h.run({ message: 'again', threadId: 'policy-snapshot-2', runId: 'run-2', agentName: 'curator' });
  expect(next.state.tasks.map((t) => [t.status, t.attempts])).toEqual([['failed', 0], ['failed', 0]]);
  expect((await toolMessages(h, 'policy-snapshot-2'))[0]).toContain('none permitted by caller policy');
});

const auditorScenario = {
  lead: [{ tool_calls: [task('auditor', 'Audit the books')] }, { content: 'audited' }],
  subagents: [{ match: 'Audit', turns: [{ content: 'books are fine' }] }],
};

/** Stores a managed subagent, stops every worker and the store, starts again on the same data, and delegates to it. */
async function managedSurvivesRestart(options: HarnessOptions): Promise<void> {
  const first = await startHarness(temporal.env(), auditorScenario, {}, options);
  await first.stores.agents.createSubagent({ name: 'auditor', description: 'Audits ledgers', system_prompt: 'You audit ledgers carefully.' });
  await first.close();

  const harness = await temporal.start(auditorScenario, {}, options);
  const { state } = await harness.run({ message: 'audit', threadId: 'managed-restart', runId: `run-${Date.now()}` });
  expect(state.status).toBe('completed');
  expect(state.tasks).toEqual([expect.objectContaining({ subagent: 'auditor', status: 'completed', resultBrief: 'books are fine' })]);
  const subagentSystem = harness.recorder.requests
    .filter((r) => !r.tags.includes('lead'))
    .map((r) => r.messages.find((m) => m.type === 'system')?.text ?? '');
  expect(subagentSystem[0]).toContain('You audit ledgers carefully.');
  expect(harness.recorder.leadSystemPrompts()[0]).toContain('**auditor**: Audits ledgers');
}

const restartDirs: string[] = [];
afterAll(() => restartDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

test('a managed definition survives a worker restart (SQLite)', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'deerflow-restart-'));
  restartDirs.push(dir);
  await managedSurvivesRestart({ dir });
});

describePostgres('PostgreSQL store', (db) => {
  test('a managed definition survives a worker restart (PostgreSQL)', async () => {
    await managedSurvivesRestart({ postgresUrl: await db.freshSchemaUrl() });
  });
});
