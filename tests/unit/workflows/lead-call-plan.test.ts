import type { CatalogEntry, ToolCall } from '../../../src/contracts';
import { leadToolSummary, planLeadCalls, type CallPlanContext } from '../../../src/workflows/lead-call-plan';

const GP: CatalogEntry = { name: 'general-purpose', timeoutSeconds: 1800, maxTurns: 150 };
const call = (name: string, args: Record<string, unknown> = {}, id = 'same'): ToolCall => ({ id, name, args, argsTruncated: false });
const task = (subagent_type: string, extra: Record<string, unknown> = {}) =>
  call('task', { description: 'Look around', prompt: 'List the workspace.', subagent_type, ...extra });
const ctx = (overrides: Partial<CallPlanContext> = {}): CallPlanContext => ({
  catalog: [GP],
  allowedSubagents: null,
  hostBashAllowed: true,
  leadTools: ['read_file', 'web_fetch'],
  batches: false,
  ...overrides,
});

describe('planLeadCalls', () => {
  it('keys every call by the id the run gave it, whatever the provider id says', () => {
    const plan = planLeadCalls([task('general-purpose'), call('read_file', { path: 'a' }), task('general-purpose')], ['0.0', '0.1', '0.2'], ctx());
    expect(plan.map((p) => [p.kind, p.ref.callId, p.ref.toolCallId])).toEqual([
      ['task', '0.0', 'same'],
      ['leadTool', '0.1', 'same'],
      ['task', '0.2', 'same'],
    ]);
  });

  it('a task naming an unknown subagent or with invalid arguments is a refused task with the exact error', () => {
    const [unknown, invalid] = planLeadCalls([task('wizard'), call('task', { description: 'No prompt', subagent_type: 'general-purpose' })], ['1.0', '1.1'], ctx());
    expect(unknown).toEqual({
      kind: 'refusedTask',
      ref: { callId: '1.0', toolCallId: 'same', toolName: 'task' },
      subagentType: 'wizard',
      description: 'Look around',
      error: "Unknown subagent type 'wizard'. Available: general-purpose",
    });
    expect(invalid).toMatchObject({ kind: 'refusedTask', subagentType: 'general-purpose', description: 'No prompt', error: 'Invalid task arguments: prompt: is required' });
  });

  it('a refused task with non-string arguments keeps empty names rather than inventing some', () => {
    const [refused] = planLeadCalls([call('task', { description: 7, subagent_type: ['x'] })], ['0.0'], ctx());
    expect(refused).toMatchObject({ kind: 'refusedTask', subagentType: '', description: '' });
  });

  it('tools outside the run are unknown, and the error lists what the lead has', () => {
    const [bash, batch] = planLeadCalls([call('bash', { command: 'ls' }), call('batch_task')], ['0.0', '0.1'], ctx());
    expect(bash).toMatchObject({ kind: 'unknown', error: "Unknown tool 'bash'. Available: task, read_file, web_fetch" });
    expect(batch).toMatchObject({ kind: 'unknown', error: "Unknown tool 'batch_task'. Available: task, read_file, web_fetch" });
  });

  it('batch_task is a batch where batches are on', () => {
    const [batch, unknown] = planLeadCalls([call('batch_task'), call('nope')], ['0.0', '0.1'], ctx({ batches: true, leadTools: [] }));
    expect(batch?.kind).toBe('batch');
    expect(unknown).toMatchObject({ error: "Unknown tool 'nope'. Available: task, batch_task" });
  });

  it('runs recorded before the lead had tools (no lead tools) answer every other tool as unknown', () => {
    expect(planLeadCalls([call('read_file')], ['x'], ctx({ leadTools: [] }))[0]?.kind).toBe('unknown');
  });

  it('runs an MCP tool its snapshot allows by name or by <server>__*, and answers any other as unknown', () => {
    const plan = planLeadCalls([call('docs__search'), call('web__shout'), call('web__wait'), call('files__read')], ['0.0', '0.1', '0.2', '0.3'], ctx({ leadTools: ['docs__search', 'web__*'] }));
    expect(plan.map((p) => p.kind)).toEqual(['leadTool', 'leadTool', 'leadTool', 'unknown']);
  });
});

describe('leadToolSummary', () => {
  it('shows the argument that says most', () => {
    expect(leadToolSummary(call('read_file', { path: 'notes/a.md', start_line: 3 }))).toBe('read_file: notes/a.md');
    expect(leadToolSummary(call('web_fetch', { url: 'https://example.com/x' }))).toBe('web_fetch: https://example.com/x');
    expect(leadToolSummary(call('bash', { command: 'npm   test\n  --ci' }))).toBe('bash: npm test --ci');
  });

  it('falls back to the arguments as JSON and cuts long ones', () => {
    expect(leadToolSummary(call('ls', {}))).toBe('ls: {}');
    const summary = leadToolSummary(call('bash', { command: 'x'.repeat(500) }));
    expect(summary).toHaveLength('bash: '.length + 120);
    expect(summary.endsWith('…')).toBe(true);
  });
});
