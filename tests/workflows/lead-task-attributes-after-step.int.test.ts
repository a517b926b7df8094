import { WorkflowFailedError } from '@temporalio/client';
import { SA_RUN_STATUS, SA_STOP_REASONS, SA_SUBAGENTS } from '../../src/contracts';
import { WORKFLOW_PATCHES } from '../../src/workflows/patches';
import { decodeJson, patchIds, type HistoryEvent } from '../support/history-events';
import { overBudgetTurn, TINY_TOKEN_BUDGET } from '../support/over-budget-turn';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const task = (n: number, subagent = 'general-purpose') => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: subagent } });


async function historyOf(workflowId: string, runId?: string): Promise<HistoryEvent[]> {
  return (await temporal.env().client.workflow.getHandle(workflowId, runId).fetchHistory()).events ?? [];
}

/** The attributes a search-attribute payload map holds, decoded, by name (the SDK's own TemporalChangeVersion left out). */
function attributes(fields: Record<string, { data?: Uint8Array | null }> | null | undefined): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(fields ?? {})
      .filter(([name]) => name !== 'TemporalChangeVersion')
      .map(([name, payload]) => [name, decodeJson(payload.data)]),
  );
}

/** One workflow task of a history: the activities it scheduled, what it upserted, and the close it made. */
interface WorkflowTaskCommands {
  schedules: string[];
  upserts: Array<Record<string, unknown>>;
  closes?: string;
}

/** A history as its workflow tasks' commands (an upsert of the SDK's TemporalChangeVersion alone is left out). */
function workflowTasks(events: readonly HistoryEvent[]): WorkflowTaskCommands[] {
  const tasks: WorkflowTaskCommands[] = [];
  for (const event of events) {
    const current = tasks.at(-1);
    if (event.workflowTaskCompletedEventAttributes) tasks.push({ schedules: [], upserts: [] });
    else if (current === undefined) continue;
    else if (event.activityTaskScheduledEventAttributes) current.schedules.push(event.activityTaskScheduledEventAttributes.activityType?.name ?? '');
    else if (event.upsertWorkflowSearchAttributesEventAttributes) {
      const upserted = attributes(event.upsertWorkflowSearchAttributesEventAttributes.searchAttributes?.indexedFields);
      if (Object.keys(upserted).length > 0) current.upserts.push(upserted);
    } else if (event.workflowExecutionCompletedEventAttributes) current.closes = 'completed';
    else if (event.workflowExecutionCanceledEventAttributes) current.closes = 'cancelled';
    else if (event.workflowExecutionContinuedAsNewEventAttributes) current.closes = 'continued as new';
  }
  return tasks;
}

test("a one-task run upserts its task's attributes with its closing status: the workflow task that learned the outcome only schedules the next step", async () => {
  // The subagent's one turn spends its whole token budget: its task has a stop reason to make searchable.
  const harness = await temporal.start(
    { lead: [{ tool_calls: [task(1)] }, { content: 'Job 1 is done.' }], subagents: [{ match: '*', turns: [overBudgetTurn('a short answer')] }] },
    TINY_TOKEN_BUDGET,
  );
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-one', runId: 'run-1' });
  expect(state.status).toBe('completed');
  expect(state.tasks.map((t) => [t.taskId, t.stopReason])).toEqual([['0.0', 'token_capped']]);

  const events = await historyOf(workflowId);
  expect(patchIds(events)).toEqual([WORKFLOW_PATCHES.leadTaskAttributesAfterStep]);
  expect(workflowTasks(events)).toEqual([
    { schedules: ['leadModelStep'], upserts: [{ DeerflowRunStatus: 'running' }] },
    { schedules: ['runSubagent'], upserts: [] },
    { schedules: ['leadModelStepWithOutcomes'], upserts: [] },
    { schedules: [], upserts: [{ DeerflowRunStatus: 'completed', DeerflowSubagents: ['general-purpose'], DeerflowStopReasons: ['token_capped'] }], closes: 'completed' },
  ]);
  const description = await temporal.env().client.workflow.getHandle(workflowId).describe();
  expect(description.typedSearchAttributes.get(SA_RUN_STATUS)).toBe('completed');
  expect(description.typedSearchAttributes.get(SA_SUBAGENTS)).toEqual(['general-purpose']);
  expect(description.typedSearchAttributes.get(SA_STOP_REASONS)).toEqual(['token_capped']);
});

test("a response's tasks' attributes go with the workflow task that handles the next step's response, before its calls run; an earlier burst's at once", async () => {
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: [task(1, 'bash'), task(2)] }, { tool_calls: [task(3)] }, { content: 'all done' }],
      subagents: [
        // Over its budget: the response's last outcome changes the run's stop reasons.
        { match: 'Job 2', turns: [{ ...overBudgetTurn('slow'), delay_ms: 1_500 }] },
        { match: '*', turns: [{ content: 'fast' }] },
      ],
    },
    TINY_TOKEN_BUDGET,
  );
  const { state, workflowId } = await harness.run({ message: 'go', threadId: 'thread-turns', runId: 'run-1' });
  expect(state.tasks.map((t) => [t.taskId, t.subagent, t.status, t.stopReason])).toEqual([
    ['0.0', 'bash', 'completed', null],
    ['0.1', 'general-purpose', 'completed', 'token_capped'],
    ['1.0', 'general-purpose', 'completed', null],
  ]);

  expect(workflowTasks(await historyOf(workflowId))).toEqual([
    { schedules: ['leadModelStep'], upserts: [{ DeerflowRunStatus: 'running' }] },
    { schedules: ['runSubagent', 'runSubagent'], upserts: [] },
    // Job 1's end, a burst before the response's last: written and upserted when it is known.
    { schedules: [], upserts: [{ DeerflowSubagents: ['bash', 'general-purpose'] }] },
    // Job 2's end, the response's last: left to the step, and its attributes with it.
    { schedules: ['leadModelStepWithOutcomes'], upserts: [] },
    { schedules: ['runSubagent'], upserts: [{ DeerflowStopReasons: ['token_capped'] }] },
    { schedules: ['leadModelStepWithOutcomes'], upserts: [] },
    // Job 3 changed no attribute: the closing upsert holds the status alone.
    { schedules: [], upserts: [{ DeerflowRunStatus: 'completed' }], closes: 'completed' },
  ]);
});

test('a run cancelled during the step that carries its last outcomes upserts their attributes with its cancelled status', async () => {
  const harness = await temporal.start({
    lead: [{ tool_calls: [task(1, 'bash')] }, { content: 'too late', delay_ms: 60_000 }],
    subagents: [{ match: '*', turns: [{ content: 'ok' }] }],
  });
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-cancel', runId: 'run-1' });
  await waitFor(async () => harness.recorder.requests.filter((r) => r.tags.includes('lead')).length === 2);
  await started.handle.cancel();
  await expect(started.handle.result()).rejects.toBeInstanceOf(WorkflowFailedError);

  const tasks = workflowTasks(await historyOf(started.workflowId));
  expect(tasks.at(-1)).toEqual({
    schedules: [],
    upserts: [{ DeerflowRunStatus: 'cancelled', DeerflowSubagents: ['bash'] }],
    closes: 'cancelled',
  });
  const description = await started.handle.describe();
  expect(description.typedSearchAttributes.get(SA_SUBAGENTS)).toEqual(['bash']);
});

test('a run that continues as new after a response carries the attributes its last outcomes changed into the next execution', async () => {
  // 40 tasks in the first response put its history past the limit of 100 events, so the run
  // continues as new before its second step. The slow one ends last, token_capped: its stop reason
  // is the attribute the response's last burst changes.
  const tasks = Array.from({ length: 40 }, (_, n) => task(n));
  const harness = await temporal.start(
    {
      lead: [{ tool_calls: tasks }, { content: 'done' }],
      subagents: [
        { match: 'Job 39:', turns: [{ ...overBudgetTurn('slow'), delay_ms: 2_000 }] },
        { match: '*', turns: [{ content: 'fast' }] },
      ],
    },
    { ...TINY_TOKEN_BUDGET, subagents: { ...TINY_TOKEN_BUDGET.subagents, max_total_per_run: 50 }, subagent_runtime: { max_running: 40 }, lead_runs: { history_event_limit: 100 } },
  );
  const started = await harness.client.startRun({ message: 'go', threadId: 'thread-continued', runId: 'run-1' });
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state.status).toBe('completed');
  expect(state.tasks.filter((t) => t.status === 'completed')).toHaveLength(40);
  expect(state.tasks.flatMap((t) => (t.stopReason ? [[t.taskId, t.stopReason]] : []))).toEqual([['0.39', 'token_capped']]);

  const events = await historyOf(started.workflowId, started.handle.firstExecutionRunId);
  const continued = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes;
  expect(continued).toBeTruthy();
  // The first execution never ran the step its last burst was left to: no upsert there holds the stop reason ...
  expect(workflowTasks(events).flatMap((t) => t.upserts)).toEqual([{ DeerflowRunStatus: 'running' }, { DeerflowSubagents: ['general-purpose'] }]);
  // ... and the continuation started the next execution with it.
  expect(attributes(continued?.searchAttributes?.indexedFields)).toMatchObject({ DeerflowSubagents: ['general-purpose'], DeerflowStopReasons: ['token_capped'] });
  const description = await started.handle.describe();
  expect(description.typedSearchAttributes.get(SA_STOP_REASONS)).toEqual(['token_capped']);
});
