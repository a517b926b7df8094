import type { temporal } from '@temporalio/proto';
import { buildRunReport } from '../../src/cli/run-report';
import { SA_RUN_STATUS } from '../../src/contracts';
import { useTemporal } from '../support/use-temporal';

const dev = useTemporal();

const TURNS = 300;
const MB = 1024 * 1024;

test(`a ${TURNS}-turn lead run continues as new, completes, and its state and report show the whole run`, async () => {
  const harness = await dev.start(
    { lead: [{ tool_calls: [{ name: 'ls', args: { path: '.' } }], repeat: TURNS - 1 }, { content: `looked ${TURNS - 1} times` }] },
    // The same call every turn is the point here, so loop detection is off; a small event limit
    // makes the run continue as new several times.
    { agents: { default: { max_turns: TURNS + 10 } }, loop_detection: { enabled: false }, lead_runs: { history_event_limit: 1000 } },
  );
  const started = await harness.client.startRun({ message: 'look around, many times', threadId: 'thread-long', runId: 'run-1' });
  await started.handle.result();
  const state = await harness.client.getState(started.workflowId);
  expect(state).toMatchObject({ status: 'completed', turn: TURNS - 1, finalMessageBrief: `looked ${TURNS - 1} times` });
  expect(state.leadTools).toHaveLength(TURNS - 1);
  expect(state.leadTools.every((t) => t.status === 'completed')).toBe(true);
  expect(state.leadTools.at(-1)?.callId).toBe(`${TURNS - 2}.0`);

  const report = await buildRunReport(harness.stores, state, started.workflowId);
  expect(report.lead_tools).toHaveLength(TURNS - 1);
  expect(report.events).toEqual({ 'tool.start': TURNS - 1, 'tool.end': TURNS - 1 });

  // Follow the chain of executions: every one but the last continued as new, each history small.
  const client = dev.env().client;
  const executions: Array<{ events: number; bytes: number; continued: boolean }> = [];
  let runId: string | undefined = started.handle.firstExecutionRunId;
  while (runId !== undefined) {
    const history: temporal.api.history.v1.IHistory = await client.workflow.getHandle(started.workflowId, runId).fetchHistory();
    const events: temporal.api.history.v1.IHistoryEvent[] = history.events ?? [];
    const next: string | undefined = events.at(-1)?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    executions.push({ events: events.length, bytes: JSON.stringify(history).length, continued: next !== undefined });
    runId = next ?? undefined;
  }
  expect(executions.length).toBeGreaterThanOrEqual(3);
  expect(executions.slice(0, -1).every((e) => e.continued)).toBe(true);
  for (const execution of executions) {
    expect(execution.bytes).toBeLessThan(2 * MB);
    // The limit is checked between turns, so a run stops a turn's worth of events past it.
    expect(execution.events).toBeLessThan(1100);
  }
  const description = await client.workflow.getHandle(started.workflowId).describe();
  expect(description.typedSearchAttributes.get(SA_RUN_STATUS)).toBe('completed');
}, 240_000);
