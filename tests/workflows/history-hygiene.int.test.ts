import { temporal } from '@temporalio/proto';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { sha256Hex } from '../../src/activities/sha256-hex';
import { WORKFLOW_PATCHES } from '../../src/workflows/patches';
import { decodeJson, localActivityTypes, patchIds } from '../support/history-events';
import { createTestEnv } from '../support/temporal-env';
import { startHarness, type Harness } from '../support/harness';

let env: TestWorkflowEnvironment;
let harness: Harness | null = null;

beforeAll(async () => {
  env = await createTestEnv();
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await env?.teardown();
});

const LEAD_TURNS = 10;
const RESULT_CHARS = 60_000;
/**
 * Per lead turn, history may carry a few bounded briefs (<= 2000 chars each: model text, tool-call
 * args, the subagent's result brief in its result, the tool outcome and the end event): at most 8
 * per turn. The transcripts of this run exceed 700 kB; passing them to every model step would
 * put several MB into history.
 */
const HISTORY_BYTES_BOUND = LEAD_TURNS * 8 * 2_000;

test('a 10-turn lead run keeps transcripts out of workflow history (bounded briefs only)', async () => {
  // Every subagent returns a 60 kB report, and the lead's messages and task prompts are long too:
  // history must carry only bounded briefs (<= 2000 chars) and references.
  const report = (i: number) => `REPORT-${i} ` + `finding ${i} `.repeat(RESULT_CHARS / 10);
  const longPrompt = 'P'.repeat(10_000);
  const lead = [
    ...Array.from({ length: LEAD_TURNS - 1 }, (_, i) => ({
      content: `L${i} `.repeat(2_000),
      tool_calls: [{ name: 'task', args: { description: `Step ${i}`, prompt: `Job-${i} ${longPrompt}`, subagent_type: 'general-purpose' } }],
    })),
    { content: 'All nine reports are in.' },
  ];
  const subagents = Array.from({ length: LEAD_TURNS - 1 }, (_, i) => ({ match: `Job-${i} `, turns: [{ content: report(i) }] }));
  harness = await startHarness(env, { lead, subagents }, { subagents: { max_total_per_run: 50 } });

  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-history', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.turn).toBe(LEAD_TURNS - 1);
  expect(state.tasks.map((t) => t.status)).toEqual(Array(LEAD_TURNS - 1).fill('completed'));

  const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
  const bytes = temporal.api.history.v1.History.encode(history).finish().length;
  expect(bytes).toBeLessThan(HISTORY_BYTES_BOUND);
  // Payloads are base64-encoded JSON: decode them and look for transcript text beyond a brief.
  const decoded = (history.events ?? [])
    .flatMap((e) => [
      ...(e.activityTaskScheduledEventAttributes?.input?.payloads ?? []),
      ...(e.activityTaskCompletedEventAttributes?.result?.payloads ?? []),
      ...(e.workflowExecutionCompletedEventAttributes?.result?.payloads ?? []),
    ])
    .map((p) => Buffer.from(p.data ?? new Uint8Array()).toString('utf8'))
    .join('\n');
  expect(decoded).toContain('REPORT-3 finding 3');
  expect(decoded).not.toContain('finding 3 '.repeat(250)); // 2500 chars: longer than any brief
  expect(decoded).not.toContain('P'.repeat(2_001));
  expect(decoded).not.toContain('L4 '.repeat(700));

  // The full texts live in the store.
  const stored = await harness.stores.results.getResult(state.tasks[3]!.resultRef!);
  // Compared by hash so a mismatch does not print 60 kB.
  expect(sha256Hex(stored ?? '')).toBe(sha256Hex(report(3).trim()));
  expect(state.tasks[3]?.resultSha256).toBe(sha256Hex(report(3).trim()));
});

test('a new lead run records one patch marker for every lead patch, and one TemporalChangeVersion upsert', async () => {
  // Tasks (admission), one over the run's total (delegation limit), a lead tool (own call
  // ids), then an answer: every lazily decided lead patch is taken, none records a marker of its own.
  const task = (n: number) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: 'general-purpose' } });
  const lead = [{ tool_calls: [task(1), task(2), task(3), task(4), { name: 'ls', args: { path: '.' } }] }, { content: 'done' }];
  await harness?.close();
  harness = await startHarness(env, { lead, subagents: [{ match: '*', turns: [{ content: 'ok' }] }] }, { subagents: { max_total_per_run: 3 } });

  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-patches', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.strippedTaskCalls).toBe(1);
  expect(state.tasks.map((t) => t.status)).toEqual(['completed', 'completed', 'completed']);

  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  expect(patchIds(events)).toEqual([WORKFLOW_PATCHES.leadTaskAttributesAfterStep]);
  const changeVersions = events.filter((e) => e.upsertWorkflowSearchAttributesEventAttributes?.searchAttributes?.indexedFields?.['TemporalChangeVersion'] !== undefined);
  expect(changeVersions).toHaveLength(1);
});

test('a new lead run admits its tasks from the model step: the step returns the backlog and settings, no admitSubagents runs', async () => {
  const task = (n: number) => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: 'general-purpose' } });
  await harness?.close();
  harness = await startHarness(
    env,
    { lead: [{ tool_calls: [task(1), task(2)] }, { content: 'done' }], subagents: [{ match: '*', turns: [{ content: 'ok' }] }] },
    { subagent_runtime: { max_running: 2, max_queued: 7, queue_timeout_seconds: 120 } },
  );

  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-admission', runId: 'run-1' });
  expect(state.tasks.map((t) => t.status)).toEqual(['completed', 'completed']);

  const events = (await env.client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
  expect(localActivityTypes(events)).not.toContain('admitSubagents');
  const stepResults = events
    .filter((e) => e.activityTaskCompletedEventAttributes)
    .map((e) => decodeJson(e.activityTaskCompletedEventAttributes!.result!.payloads![0]!.data) as { toolCalls?: unknown[]; admission?: unknown })
    .filter((r) => Array.isArray(r.toolCalls));
  // The delegating step carries the snapshot the run admitted with; the final answer has none.
  expect(stepResults.map((r) => r.admission ?? null)).toEqual([
    { queued: 0, settings: { max_running: 2, max_queued: 7, admission_policy: 'queue', queue_timeout_seconds: 120 } },
    null,
  ]);
  // Admitted with the snapshot's settings: each task may wait queue_timeout_seconds for a slot.
  const runSubagent = events.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'runSubagent');
  expect(runSubagent.map((e) => Number(e.activityTaskScheduledEventAttributes!.scheduleToStartTimeout!.seconds))).toEqual([120, 120]);
});
