/**
 * Records replay fixtures in tests/replay/histories/ by running scenarios on a real dev server.
 *   npm run replay:record -- [NAME ...]     (default: every fixture below)
 * Fixtures are never deleted: after a deliberate workflow change, keep the histories older code
 * wrote (they must still replay, thanks to `patched()`) and record new ones under new names.
 */
import type { ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { parse } from 'yaml';
import { batchStartOptions, buildBatch, buildLeadRunInput, leadRunStartOptions } from '../src/client';
import { WORKFLOW_TASK_QUEUE, WORKFLOW_TYPES } from '../src/contracts';
import { findProjectRoot } from '../src/devserver';
import { resolveCatalog } from '../src/registry';
import { createWorkers } from '../src/worker/create-workers';
import { installWorkerRuntime } from '../src/worker/install-runtime';
import { batchItemWorkflowId } from '../src/workflows/batch-messages';
import { startSubagentWorkerProcess } from '../tests/fault/subagent-worker-process';
import { HISTORIES_DIR, MANIFEST_PATH, readManifest, type ReplayFixture } from '../tests/replay/fixtures';
import { SCRIPTED_MODEL, startHarness } from '../tests/support/harness';
import { everythingServerConfig } from '../tests/support/mcp-servers';
import { overBudgetTurn, TINY_TOKEN_BUDGET } from '../tests/support/over-budget-turn';
import { createTestEnv } from '../tests/support/temporal-env';

interface FixtureRecipe {
  readonly file: string;
  readonly description: string;
  readonly scenario: () => Record<string, unknown>;
  readonly config?: Record<string, unknown>;
  /** How the run must end for the history to be kept. @default 'completed' */
  readonly expectStatus?: 'completed' | 'failed' | 'cancelled';
  /** Keep the history of the chain's first or second execution (continued as new), not of its last one. */
  readonly execution?: 'first' | 'second';
  /**
   * Act on the live run or batch once this many rows of these events are stored: cancel it, cancel
   * one task, extend one, answer its question, cancel the batch (update), or lose the subagent
   * worker (the recipe's subagents then run in a worker process, killed with SIGKILL; a worker in
   * this process takes over once the heartbeat timeout expires the lost execution).
   */
  readonly actAfter?: {
    readonly events: readonly string[];
    readonly count: number;
    readonly action:
      | { readonly kind: 'cancel' }
      | { readonly kind: 'cancelTask'; readonly taskId: string }
      | { readonly kind: 'extendTask'; readonly taskId: string; readonly seconds: number }
      | { readonly kind: 'answer'; readonly answer: string }
      | { readonly kind: 'cancelBatch' }
      | { readonly kind: 'loseSubagentWorker' };
  };
  /**
   * Record a batch instead of a lead run: the batch workflow's history, and `item.file` one item's
   * (when given). `items` default to three (the last one `flaky`), `maxRunningItems` to 1 (of
   * `maxLiveItems`, 2), `historyEventLimit` to the batch default.
   */
  readonly batch?: {
    readonly item: { readonly key: string; readonly file: string; readonly description: string } | null;
    readonly items?: ReadonlyArray<{ readonly key: string; readonly prompt: string }>;
    readonly maxRunningItems?: number;
    readonly maxLiveItems?: number;
    readonly historyEventLimit?: number;
  };
  /**
   * Start the workflow as `temporal workflow start` would: a plain Temporal client, the built input,
   * no search attributes (the workflow upserts its own identifying ones).
   */
  readonly plainClient?: boolean;
  /** Run no subagent worker at all: every execution waits in its queue until the run gives up on it. */
  readonly noSubagentWorker?: boolean;
}

/** The demo as it was before the lead had tools of its own (the older demo fixtures' scenario). */
const delegationOnlyDemo = () =>
  parse(readFileSync(join(findProjectRoot(), 'tests', 'fixtures', 'scenarios', 'demo-delegation-only.yaml'), 'utf8')) as Record<string, unknown>;

const task = (n: number, subagent = 'general-purpose') => ({ name: 'task', args: { description: `Job ${n}`, prompt: `Job ${n}: do it`, subagent_type: subagent } });

const batchItems = (count: number) => Array.from({ length: count }, (_, i) => ({ key: String(i + 1).padStart(2, '0'), prompt: `Item ${i + 1}` }));

/** Batches on, polling fast: every batch recipe's config. */
const BATCHES_ON = { subagent_batches: { enabled: true, poll_interval_seconds: 0.1 } };

/** A run total of 3 tasks: the delegation-limit recipes' config. */
const DELEGATION_LIMIT = { subagents: { max_total_per_run: 3 } };

/** The delegation-limit config with the lead's model steps as local activities. */
const LOCAL_MODEL_STEPS = { ...DELEGATION_LIMIT, lead_runs: { model_steps: 'local' } };

/** Up to 20 lead turns of one task each, continuing as new at 100 history events. */
const CONTINUE_AS_NEW_AT_100 = { agents: { default: { max_turns: 20 } }, subagents: { max_total_per_run: 50 }, loop_detection: { enabled: false }, lead_runs: { history_event_limit: 100 } };

/** Item 01 runs for 4 s while the batch continues as new around it (patch "batch-items-outlive-runs"). */
const OUTLIVE_BATCH = { item: null, items: [{ key: '01', prompt: 'slow item' }, ...batchItems(20).slice(1)], maxRunningItems: 2, maxLiveItems: 3, historyEventLimit: 100 };

const RECIPES: Record<string, FixtureRecipe> = {
  demo: {
    file: 'demo-lead-run.json',
    description: 'The npm start demo: one lead turn with two parallel task calls (general-purpose, bash), then a final answer.',
    scenario: delegationOnlyDemo,
  },
  'safety-net': {
    file: 'demo-lead-run-safety-net.json',
    description:
      'The demo again, recorded with the per-task safety-net timers (patch "task-polling-safety-net"): two parallel tasks, each raced against its timeout + grace.',
    scenario: delegationOnlyDemo,
  },
  admission: {
    file: 'demo-lead-run-admission.json',
    description:
      'The demo again, recorded with the admission check before a response\'s tasks are scheduled (patch "subagent-admission").',
    scenario: delegationOnlyDemo,
  },
  'demo-lead-tools': {
    file: 'demo-lead-tools.json',
    description:
      'The npm start demo with the lead\'s own tools (patch "lead-calls"): a direct write_file call (runLeadTool), then two parallel tasks keyed by the run\'s call ids, each outcome written by recordToolOutcome, then the answer.',
    scenario: () => parse(readFileSync(join(findProjectRoot(), 'scenarios', 'demo', 'scenario.yaml'), 'utf8')) as Record<string, unknown>,
  },
  'lead-calls-mixed': {
    file: 'lead-calls-mixed.json',
    description:
      'Patch "lead-calls": one response mixing a direct read_file, two tasks sharing the provider id "dup", a task naming an unknown subagent (a failed task) and an unknown tool; then the answer.',
    scenario: () => ({
      lead: [
        {
          tool_calls: [
            { name: 'ls', args: { path: '.' } },
            { ...task(1), id: 'dup' },
            { ...task(2), id: 'dup' },
            { name: 'task', args: { description: 'Nobody', prompt: 'nobody', subagent_type: 'wizard' } },
            { name: 'teleport', args: {} },
          ],
        },
        { content: 'done' },
      ],
      subagents: [{ match: '*', turns: [{ content: 'done' }] }],
    }),
  },
  'lead-turn-cap': {
    file: 'lead-turn-cap.json',
    description: 'Patch "lead-calls": a lead with max_turns 1 whose only response has a direct call and a task: neither runs, closeToolCalls answers both "not run", the run fails turn_capped.',
    scenario: () => ({ lead: [{ tool_calls: [{ name: 'write_file', args: { path: 'x.txt', content: 'x' } }, task(1)] }] }),
    config: { agents: { default: { max_turns: 1 } } },
    expectStatus: 'failed',
  },
  'lead-cancel-mid-tool': {
    file: 'lead-cancel-mid-tool.json',
    description:
      'Patch "lead-calls": a run cancelled while a direct bash call and a task run: the task ends cancelled (recordToolOutcome), the bash call is closed "cancelled" by closeToolCalls, both non-cancellable.',
    scenario: () => ({
      lead: [{ tool_calls: [{ name: 'bash', args: { command: 'sleep 30' } }, task(1)] }, { content: 'unreachable' }],
      subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }],
    }),
    actAfter: { events: ['tool.start', 'subagent.start'], count: 2, action: { kind: 'cancel' } },
    expectStatus: 'cancelled',
  },
  'lead-guards-loop': {
    file: 'lead-guards-loop.json',
    description:
      'Patch "lead-guards": a lead repeating the same ls call: warned (request-only) after the 3rd response, stopped at the 5th (calls stripped by rewriteLeadTurn, loop_capped in the run\'s search attributes).',
    scenario: () => ({ lead: [{ content: 'Looking again.', tool_calls: [{ name: 'ls', args: { path: '.' } }], repeat: 'forever' }] }),
  },
  'lead-guards-fallback': {
    file: 'lead-guards-fallback.json',
    description: 'Patch "lead-guards": the lead model fails for good (a 400): the step stores the error fallback and the run fails with the provider message.',
    scenario: () => ({ lead: [{ error: '400 invalid request: malformed', repeat: 'forever' }] }),
    expectStatus: 'failed',
  },
  'lead-continue-as-new': {
    file: 'lead-continue-as-new.json',
    description:
      'Patch "lead-continue-as-new": the first execution of a 40-turn lead run with a history limit of 100 events: direct ls calls, then continued as new between turns carrying the run state.',
    scenario: () => ({ lead: [{ tool_calls: [{ name: 'ls', args: { path: '.' } }], repeat: 39 }, { content: 'done' }] }),
    config: { agents: { default: { max_turns: 50 } }, loop_detection: { enabled: false }, lead_runs: { history_event_limit: 100 } },
    execution: 'first',
  },
  'lead-cancel-task': {
    file: 'lead-cancel-task.json',
    description: 'Update "cancelTask": of two running tasks, one is cancelled by the update (its own cancellation scope); the other completes and the lead answers.',
    scenario: () => ({
      lead: [{ tool_calls: [task(1), task(2)] }, { content: 'one was cancelled' }],
      subagents: [
        { match: 'Job 1', turns: [{ content: 'late', delay_ms: 60_000 }] },
        { match: '*', turns: [{ content: 'done', delay_ms: 1000 }] },
      ],
    }),
    actAfter: { events: ['subagent.start'], count: 2, action: { kind: 'cancelTask', taskId: '0.0' } },
  },
  'lead-extend-task': {
    file: 'lead-extend-task.json',
    description:
      'Patch "task-deadlines": a task with a 2 s timeout is extended by 10 s (update extendTask) while its subagent needs 4 s; the safety net re-arms, the execution asks query taskTimeout at its deadline, and the task completes.',
    scenario: () => ({
      lead: [{ tool_calls: [{ name: 'task', args: { description: 'Patient', prompt: 'Patient: wait', subagent_type: 'slowpoke' } }] }, { content: 'it finished' }],
      subagents: [{ match: '*', turns: [{ content: 'done after 4 s', delay_ms: 4000 }] }],
    }),
    config: { subagents: { custom_agents: { slowpoke: { description: 'Takes its time.', system_prompt: 'Be slow.', timeout_seconds: 2 } } } },
    actAfter: { events: ['subagent.start'], count: 1, action: { kind: 'extendTask', taskId: '0.0', seconds: 10 } },
  },
  'lead-clarification': {
    file: 'lead-clarification.json',
    description:
      'Patch "lead-clarification": the lead asks with ask_clarification (recordClarification asked), the run waits on a condition until update answerClarification, writes the answer and goes on to its final answer.',
    scenario: () => ({ lead: [{ tool_calls: [{ name: 'ask_clarification', args: { question: 'Which one?' } }] }, { content: 'Got it.' }] }),
    actAfter: { events: ['clarification.asked'], count: 1, action: { kind: 'answer', answer: 'the first one' } },
  },
  'delegation-limit': {
    file: 'delegation-limit.json',
    description:
      'Delegation limit (patch "delegation-limit"): 5 task calls with a per-response limit of 3 (2 dropped), then 2 more with a run total of 3 (budget used up: both stripped, note, stop).',
    scenario: () => ({
      lead: [{ tool_calls: [1, 2, 3, 4, 5].map((n) => task(n)) }, { content: 'Again.', tool_calls: [6, 7].map((n) => task(n)) }, { content: 'unused' }],
      subagents: [{ match: '*', turns: [{ content: 'done' }] }],
    }),
    config: DELEGATION_LIMIT,
  },
  'lead-batch-task': {
    file: 'lead-batch-task.json',
    description:
      'A lead run whose first response is a batch_task call (patch "batch-task"): the batch is prepared by an activity and runs as a child batchWorkflow, then the lead answers.',
    scenario: () => ({
      lead: [
        {
          tool_calls: [
            {
              name: 'batch_task',
              args: { title: 'two items', subagent_type: 'general-purpose', items: [{ key: 'a', prompt: 'first' }, { key: 'b', prompt: 'second' }] },
            },
          ],
        },
        { content: 'both done' },
      ],
      subagents: [{ match: '*', turns: [{ content: 'done' }] }],
    }),
    config: BATCHES_ON,
  },
  batch: {
    file: 'batch.json',
    description:
      'A batch of 3 items (window 2 live, 1 running): items start in key order, ask for running slots, the last one fails once and succeeds on its second attempt.',
    scenario: () => ({
      subagents: [
        { match: 'flaky', attempt: 1, turns: [{ error: '400 refused once' }] },
        { match: '*', turns: [{ content: 'done' }] },
      ],
    }),
    config: BATCHES_ON,
    batch: {
      item: {
        key: 'c',
        file: 'batch-item-retry.json',
        description: 'The batch item that failed its first attempt (recorded as failed on its row) and completed on the second.',
      },
    },
  },
  'batch-slots-with-start': {
    file: 'batch-slots-with-start.json',
    description:
      'Patches "batch-slots-with-start" and "batch-item-start-attempt": the 3-item batch (window 2 live, 1 running) starts an item only when its one running slot is free and passes the slot with the start; the flaky last item fails once, gives the slot back and asks for it again by signal.',
    scenario: () => RECIPES['batch']!.scenario(),
    config: BATCHES_ON,
    batch: {
      item: {
        key: 'c',
        file: 'batch-item-start-attempt.json',
        description:
          'Patch "batch-item-start-attempt": the flaky item, started holding a slot: its first try starts with one local activity (startBatchItemAttempt) and fails; after the backoff it asks for a slot by signal and completes.',
      },
    },
  },
  'batch-item-leases': {
    file: 'batch-item-leases.json',
    description:
      'Patch "batch-item-leases": the 3-item batch (window 2 live, 1 running) starts every item its window allows and hands out no slots; each item runs its try as runBatchItem on deerflow-batch-items, which takes the batch\'s one running lease in the store. The flaky last item fails once and completes on its second attempt.',
    scenario: () => RECIPES['batch']!.scenario(),
    config: BATCHES_ON,
    batch: {
      item: {
        key: 'c',
        file: 'batch-item-leased-retry.json',
        description:
          'The flaky item of a batch-item-leases batch (leased: true in its input, no marker of its own): its first runBatchItem try fails (recorded as failed on its row), the second, after the backoff, completes and writes the end of the item itself (no finishBatchItem); no slot signals, no admission, no running-mark activity.',
      },
    },
  },
  'batch-leases-cancel': {
    file: 'batch-leases-cancel.json',
    description:
      'Patch "batch-item-leases": update "cancelBatch" on a 6-item batch (window 2 live, 2 running) while both live items\' subagents run: every nonterminal item is cancelled in the store, the live item workflows and their runBatchItem tries are cancelled, the batch ends cancelled.',
    scenario: () => RECIPES['batch-cancel']!.scenario(),
    config: BATCHES_ON,
    batch: {
      item: {
        key: '01',
        file: 'batch-item-leased-cancelled.json',
        description:
          'An item of a batch-item-leases batch (leased: true in its input) cancelled by its batch while its runBatchItem try ran: its terminal write takes the attempts from the row (attemptsFromRow), and it ends cancelled.',
      },
      items: batchItems(6),
      maxRunningItems: 2,
    },
    actAfter: { events: ['subagent.start'], count: 2, action: { kind: 'cancelBatch' } },
    expectStatus: 'cancelled',
  },
  'lead-plain-client': {
    file: 'lead-plain-client.json',
    description:
      'Patch "identity-search-attributes": the demo started by a plain Temporal client without search attributes; the run upserts DeerflowThreadId, DeerflowUserId and DeerflowAgent with its first status.',
    scenario: () => parse(readFileSync(join(findProjectRoot(), 'scenarios', 'demo', 'scenario.yaml'), 'utf8')) as Record<string, unknown>,
    plainClient: true,
  },
  'batch-plain-client': {
    file: 'batch-plain-client.json',
    description:
      'Patch "identity-search-attributes": the 3-item batch started by a plain Temporal client without search attributes; the batch upserts DeerflowBatchId, DeerflowUserId and DeerflowSubagents with its first progress.',
    scenario: () => ({ subagents: [{ match: '*', turns: [{ content: 'done' }] }] }),
    config: BATCHES_ON,
    batch: { item: null },
    plainClient: true,
  },
  'lead-task-timeout': {
    file: 'lead-task-timeout.json',
    description:
      'Patch "task-deadlines": a task with a 1 s timeout whose subagent needs 4 s: the execution reaches its own deadline (query taskTimeout: not moved) and fails TaskDeadlineExceeded, the task ends timed_out and the lead answers.',
    scenario: () => ({
      lead: [{ tool_calls: [{ name: 'task', args: { description: 'Too slow', prompt: 'Too slow: wait', subagent_type: 'slowpoke' } }] }, { content: 'it timed out' }],
      subagents: [{ match: '*', turns: [{ content: 'too late', delay_ms: 4000 }] }],
    }),
    config: { subagents: { custom_agents: { slowpoke: { description: 'Takes its time.', system_prompt: 'Be slow.', timeout_seconds: 1 } } } },
  },
  'lead-worker-lost': {
    file: 'lead-worker-lost.json',
    description:
      'A task whose subagent worker process is killed (SIGKILL) mid-execution: the 5 s heartbeat timeout expires the execution, the workflow runs attempt 2 (activity 0.0#2) on another worker, the task completes and the lead answers.',
    scenario: () => ({
      lead: [{ tool_calls: [task(1)] }, { content: 'survived' }],
      subagents: [{ match: '*', turns: [{ content: 'finished after the crash', delay_ms: 3000 }] }],
    }),
    config: { subagent_runtime: { heartbeat_timeout_seconds: 5 } },
    actAfter: { events: ['subagent.start'], count: 1, action: { kind: 'loseSubagentWorker' } },
  },
  'batch-continue-as-new': {
    file: 'batch-continue-as-new.json',
    description:
      'The first execution of a 12-item batch (window 2 live, 1 running) with a history limit of 100 events: at the limit it stops starting items, lets the live ones finish and continues as new with its cursor.',
    scenario: () => ({ subagents: [{ match: '*', turns: [{ content: 'done' }] }] }),
    config: BATCHES_ON,
    batch: { item: null, items: batchItems(12), historyEventLimit: 100 },
    execution: 'first',
  },
  'batch-items-outlive-runs': {
    file: 'batch-items-outlive-runs.json',
    description:
      'Patch "batch-items-outlive-runs": the first execution of a 20-item batch (window 3 live, 2 running, history limit 100) whose item 01 takes 4 s: it starts its items abandoned (parent close policy ABANDON) and, at the limit, continues as new once every item it started has started, without waiting for its live items.',
    scenario: () => ({
      subagents: [
        { match: '/slow/', turns: [{ content: 'slow done', delay_ms: 4_000 }] },
        { match: '*', turns: [{ content: 'done' }] },
      ],
    }),
    config: BATCHES_ON,
    batch: OUTLIVE_BATCH,
    execution: 'first',
  },
  'batch-earlier-items': {
    file: 'batch-earlier-items.json',
    description:
      'Patch "batch-items-outlive-runs": the second execution of the batch-items-outlive-runs batch, started while item 01 still ran: it reads the items earlier runs started from the store (startedBatchItems), counts the open ones in its window, polls on a backing-off timer until 01 ends, starts the last item abandoned and ends the batch.',
    scenario: () => RECIPES['batch-items-outlive-runs']!.scenario(),
    config: BATCHES_ON,
    batch: OUTLIVE_BATCH,
    execution: 'second',
  },
  'batch-cancel': {
    file: 'batch-cancel.json',
    description:
      'Update "cancelBatch" on a 6-item batch (window 2 live, 2 running) while both live items\' subagents run: every nonterminal item is cancelled in the store at once, the live item workflows are cancelled, the batch ends cancelled.',
    scenario: () => ({ subagents: [{ match: '*', turns: [{ content: 'late', delay_ms: 60_000 }] }] }),
    config: BATCHES_ON,
    batch: {
      item: {
        key: '01',
        file: 'batch-item-cancelled.json',
        description: "A batch-cancel item cancelled by its parent batch while its runSubagent execution ran: it requests the execution's cancellation and ends cancelled.",
      },
      items: batchItems(6),
      maxRunningItems: 2,
    },
    actAfter: { events: ['subagent.start'], count: 2, action: { kind: 'cancelBatch' } },
    expectStatus: 'cancelled',
  },
  'batched-calls-mixed': {
    file: 'batched-calls-mixed.json',
    description:
      'Patch "batched-task-bookkeeping": the lead-calls-mixed response again. The refused task and the unknown tool are written by one recordToolOutcome; the two tasks share one safety-net timer (cancelled when the last ends); search attributes are upserted only when they change.',
    scenario: () => RECIPES['lead-calls-mixed']!.scenario(),
  },
  'batched-safety-net': {
    file: 'batched-safety-net.json',
    description:
      'Patch "batched-task-bookkeeping": two tasks (timeouts 2 s and 1 s, grace 1 s) with no subagent worker: one timer armed for the earlier deadline gives up on task 0.1, re-arms for task 0.0 and gives up on it; both end polling_timed_out.',
    scenario: () => ({
      lead: [{ tool_calls: [{ ...task(1), args: { ...task(1).args, timeout_seconds: 2 } }, { ...task(2), args: { ...task(2).args, timeout_seconds: 1 } }] }, { content: 'both gave up' }],
    }),
    config: { subagent_runtime: { queue_timeout_seconds: 60, polling_grace_seconds: 1 }, subagents: { timeout_seconds: 2 } },
    noSubagentWorker: true,
  },
  'batched-extend-task': {
    file: 'batched-extend-task.json',
    description:
      'Patch "batched-task-bookkeeping": the lead-extend-task run again (2 s timeout, 1 s grace, extended by 10 s): the shared safety-net timer fires at the old deadline, finds the task extended and re-arms; the task completes.',
    scenario: () => RECIPES['lead-extend-task']!.scenario(),
    config: {
      subagents: { custom_agents: { slowpoke: { description: 'Takes its time.', system_prompt: 'Be slow.', timeout_seconds: 2 } } },
      subagent_runtime: { polling_grace_seconds: 1 },
    },
    actAfter: { events: ['subagent.start'], count: 1, action: { kind: 'extendTask', taskId: '0.0', seconds: 10 } },
  },
  'batched-cancel-task': {
    file: 'batched-cancel-task.json',
    description:
      'Patch "batched-task-bookkeeping": update "cancelTask" on one of two running tasks (one scope per task); the shared safety net leaves the cancelled task alone and is cancelled once the other completes.',
    scenario: () => RECIPES['lead-cancel-task']!.scenario(),
    actAfter: { events: ['subagent.start'], count: 2, action: { kind: 'cancelTask', taskId: '0.0' } },
  },
  'cancel-task-spend-in-store': {
    file: 'lead-cancel-task-spend-in-store.json',
    description:
      'Update "cancelTask" on a task that listed a folder and hangs on its second model call: its outcome is marked spendInStore, and recordToolOutcome returns the usage and evidence its execution stored before that call (no taskProgress signal: the 5 s interval had not passed).',
    scenario: () => ({
      lead: [{ tool_calls: [task(1), task(2)] }, { content: 'one was cancelled' }],
      subagents: [
        {
          match: 'Job 1',
          turns: [
            { content: 'looking', tool_calls: [{ name: 'ls', args: { path: '.' } }], usage: { input_tokens: 30, output_tokens: 5 } },
            { content: 'late', delay_ms: 60_000 },
          ],
        },
        { match: '*', turns: [{ content: 'done', delay_ms: 1000 }] },
      ],
    }),
    actAfter: { events: ['subagent.start'], count: 2, action: { kind: 'cancelTask', taskId: '0.0' } },
  },
  'batched-cancel-run': {
    file: 'batched-cancel-run.json',
    description:
      'Patch "batched-task-bookkeeping": the lead-cancel-mid-tool run again: cancelled while a direct bash call and a task run; the task\'s outcome is written by the non-cancellable outcome writer, the bash call closed by closeToolCalls.',
    scenario: () => RECIPES['lead-cancel-mid-tool']!.scenario(),
    actAfter: { events: ['tool.start', 'subagent.start'], count: 2, action: { kind: 'cancel' } },
    expectStatus: 'cancelled',
  },
  'patches-in-one': {
    file: 'lead-patches-in-one.json',
    description:
      'Patch "lead-patches-in-one": the delegation-limit run again. One marker stands for every lead patch (no marker for the run\'s own call ids, guards, deadlines, identity attributes, batched bookkeeping, admission or the delegation limit).',
    scenario: () => RECIPES['delegation-limit']!.scenario(),
    config: DELEGATION_LIMIT,
  },
  'patches-in-one-batch-task': {
    file: 'lead-patches-in-one-batch-task.json',
    description: 'Patch "lead-patches-in-one": the lead-batch-task run again, its batch_task call taken without a marker of its own.',
    scenario: () => RECIPES['lead-batch-task']!.scenario(),
    config: BATCHES_ON,
  },
  'admission-in-step': {
    file: 'lead-admission-in-step.json',
    description:
      'The delegation-limit run again, its tasks admitted from the snapshot the model step returns (`admission`): no admitSubagents local activity before they are scheduled.',
    scenario: () => RECIPES['delegation-limit']!.scenario(),
    config: DELEGATION_LIMIT,
  },
  'lead-local-model-steps': {
    file: 'lead-local-model-steps.json',
    description:
      'Patch "lead-local-model-steps" (`lead_runs.model_steps: local`): the delegation-limit run again, each model step a local activity inside the workflow task (no leadModelStep activity, no workflow task of its own per turn).',
    scenario: () => RECIPES['delegation-limit']!.scenario(),
    config: LOCAL_MODEL_STEPS,
  },
  'then-chained-calls-mixed': {
    file: 'lead-then-chained-calls-mixed.json',
    description:
      'The batched-calls-mixed response again, recorded after a task\'s outcome and its end were chained with `then` instead of awaited in async functions (ba82e90): the same commands, the refused task and the unknown tool written by one recordToolOutcome, the two tasks\' ends in one burst.',
    scenario: () => RECIPES['lead-calls-mixed']!.scenario(),
  },
  'then-chained-batch-item': {
    file: 'batch-item-leases-then-chained.json',
    description:
      'The batch-item-leases batch again, recorded after an execution\'s outcome was chained with `then` (ba82e90): the same commands for the batch and its items.',
    scenario: () => RECIPES['batch']!.scenario(),
    config: BATCHES_ON,
    batch: {
      item: {
        key: 'c',
        file: 'batch-item-leased-retry-then-chained.json',
        description:
          'The flaky item of the then-chained batch-item-leases batch: its first runBatchItem try fails (its outcome classified in the `then` of outcomeOf), the second completes and writes the end of the item itself.',
      },
    },
  },
  'outcomes-in-step-calls-mixed': {
    file: 'lead-outcomes-in-step-calls-mixed.json',
    description:
      'Patch "lead-outcomes-in-step" (its one marker standing for every lead patch): the lead-calls-mixed response again, its subagents answering after 500 ms. The refused task and the unknown tool are written by recordToolOutcome while the tasks run, the direct ls call by runLeadTool; the two tasks\' ends, the response\'s last outcomes, by leadModelStepWithOutcomes, scheduled in the workflow task that learned them.',
    scenario: () => ({ ...RECIPES['lead-calls-mixed']!.scenario(), subagents: [{ match: '*', turns: [{ content: 'done', delay_ms: 500 }] }] }),
  },
  'outcomes-in-step-cancel': {
    file: 'lead-outcomes-in-step-cancel.json',
    description:
      'Patch "lead-outcomes-in-step": a run cancelled while the step that carries its task\'s outcome waits on the model: the run did not see the step end, so it writes the outcome itself (recordToolOutcome, keyed: nothing twice), then closes the unseen turn with closeToolCalls.',
    scenario: () => ({ lead: [{ tool_calls: [task(1)] }, { content: 'too late', delay_ms: 60_000 }] }),
    actAfter: { events: ['subagent.end'], count: 1, action: { kind: 'cancel' } },
    expectStatus: 'cancelled',
  },
  'outcomes-in-step-continue-as-new': {
    file: 'lead-outcomes-in-step-continue-as-new.json',
    description:
      'Patch "lead-outcomes-in-step": the first execution of a lead run delegating one task per turn with a history limit of 100 events: each task\'s outcome is written by the next step, the last one by recordToolOutcome before the run continues as new.',
    scenario: () => ({ lead: [{ tool_calls: [task(1)], repeat: 11 }, { content: 'done' }] }),
    config: CONTINUE_AS_NEW_AT_100,
    execution: 'first',
  },
  'outcomes-in-step-local': {
    file: 'lead-outcomes-in-step-local.json',
    description:
      'Patches "lead-outcomes-in-step" and "lead-local-model-steps": the delegation-limit run with local model steps; the step after each response is a leadModelStepWithOutcomes local activity.',
    scenario: () => RECIPES['delegation-limit']!.scenario(),
    config: LOCAL_MODEL_STEPS,
  },
  'task-attributes-after-step': {
    file: 'lead-task-attributes-after-step.json',
    description:
      'Patch "lead-task-attributes-after-step" (its one marker standing for every lead patch): one response delegating to bash (answers at once) and general-purpose (after 500 ms, over its token budget: token_capped), then one more general-purpose task, then the answer. The first burst upserts the subagents when it is known; the last one, left to leadModelStepWithOutcomes, leaves its stop reason to the workflow task that handles that step\'s response, before the next task is scheduled; the closing upsert holds the status alone.',
    scenario: () => ({
      lead: [{ tool_calls: [task(1, 'bash'), task(2)] }, { tool_calls: [task(3)] }, { content: 'all done' }],
      subagents: [
        { match: 'Job 2', turns: [{ ...overBudgetTurn('slow'), delay_ms: 500 }] },
        { match: '*', turns: [{ content: 'fast' }] },
      ],
    }),
    config: TINY_TOKEN_BUDGET,
  },
  'task-attributes-after-step-one-task': {
    file: 'lead-task-attributes-after-step-one-task.json',
    description:
      'Patch "lead-task-attributes-after-step": a one-task run whose subagent ends token_capped: the workflow task that learns the outcome schedules leadModelStepWithOutcomes alone; the subagent and its stop reason go with the closing upsert.',
    scenario: () => ({
      lead: [{ tool_calls: [task(1)] }, { content: 'Job 1 is done.' }],
      subagents: [{ match: '*', turns: [overBudgetTurn('short')] }],
    }),
    config: TINY_TOKEN_BUDGET,
  },
  'task-attributes-after-step-cancel': {
    file: 'lead-task-attributes-after-step-cancel.json',
    description:
      'Patch "lead-task-attributes-after-step": a run cancelled while the step that carries its task\'s outcome waits on the model: it writes the outcome itself, and its closing upsert (cancelled) carries the task\'s subagent.',
    scenario: () => RECIPES['outcomes-in-step-cancel']!.scenario(),
    actAfter: { events: ['subagent.end'], count: 1, action: { kind: 'cancel' } },
    expectStatus: 'cancelled',
  },
  'task-attributes-after-step-continue-as-new': {
    file: 'lead-task-attributes-after-step-continue-as-new.json',
    description:
      'Patch "lead-task-attributes-after-step": the first execution of the outcomes-in-step-continue-as-new run (one task per turn, a history limit of 100 events): it continues as new with the attributes its last response left for the next step.',
    scenario: () => RECIPES['outcomes-in-step-continue-as-new']!.scenario(),
    config: CONTINUE_AS_NEW_AT_100,
    execution: 'first',
  },
  'lead-tool-search': {
    file: 'lead-tool-search.json',
    description:
      'tool_search.enabled with server-everything: the lead calls tool_search and the deferred everything__echo in one response (runLeadTool each; echo refused, not promoted yet), then echo again (promoted: completes), then answers. Promotion is run state only: no new commands.',
    scenario: () => ({
      lead: [
        { tool_calls: [{ name: 'tool_search', args: { query: 'select:everything__echo' } }, { name: 'everything__echo', args: { message: 'early' } }] },
        { tool_calls: [{ name: 'everything__echo', args: { message: 'hi' } }] },
        { content: 'The server said hi.' },
      ],
    }),
    config: { mcp_servers: { everything: everythingServerConfig({ tools: ['echo'] }) }, tool_search: { enabled: true } },
  },
};

/** Saves the history of the workflow's latest execution, or of the first or second one of its continue-as-new chain. */
async function saveHistory(env: Env, workflowId: string, file: string, execution?: 'first' | 'second'): Promise<void> {
  const runId = execution === undefined ? undefined : await executionRunId(env, workflowId, execution);
  const history = await env.client.workflow.getHandle(workflowId, runId).fetchHistory();
  // Stack traces name folders of the machine that recorded; replay never reads them.
  const withoutStacks = (key: string, value: unknown) => (key === 'stackTrace' ? '' : value);
  writeFileSync(join(HISTORIES_DIR, file), `${JSON.stringify(JSON.parse(historyToJSON(history)), withoutStacks, 1)}\n`);
}

/**
 * Every execution of a continue-as-new chain names the chain's first run in its start event, and
 * every later one the run it continued.
 */
async function executionRunId(env: Env, workflowId: string, which: 'first' | 'second'): Promise<string> {
  const startOf = async (runId?: string) =>
    (await env.client.workflow.getHandle(workflowId, runId).fetchHistory()).events?.[0]?.workflowExecutionStartedEventAttributes;
  const first = (await startOf())?.firstExecutionRunId;
  if (!first) throw new Error(`${workflowId}: its start event names no first execution`);
  if (which === 'first') return first;
  for await (const execution of env.client.workflow.list({ query: `WorkflowId = "${workflowId}"` })) {
    if ((await startOf(execution.runId))?.continuedExecutionRunId === first) return execution.runId;
  }
  throw new Error(`${workflowId}: no execution continued the first one`);
}

type Env = Awaited<ReturnType<typeof createTestEnv>>;
type Harness = Awaited<ReturnType<typeof startHarness>>;

const DEFAULT_BATCH_ITEMS = [
  { key: 'a', prompt: 'steady one' },
  { key: 'b', prompt: 'steady two' },
  { key: 'c', prompt: 'flaky three' },
];

/** Starts a batch through DeerFlowClient, or (plainClient) writes its rows and starts it with the bare Temporal client. */
async function startRecipeBatch(env: Env, harness: Harness, name: string, recipe: FixtureRecipe) {
  const request = {
    batchId: `replay-${name}`,
    title: name,
    subagentType: 'general-purpose',
    items: [...(recipe.batch?.items ?? DEFAULT_BATCH_ITEMS)],
    maxLiveItems: recipe.batch?.maxLiveItems ?? 2,
    maxRunningItems: recipe.batch?.maxRunningItems ?? 1,
    ...(recipe.batch?.historyEventLimit === undefined ? {} : { historyEventLimit: recipe.batch.historyEventLimit }),
  };
  if (recipe.plainClient !== true) return harness.client.startBatch(request);
  const config = harness.loaded.config;
  const built = buildBatch(config, resolveCatalog(config, null), { ...request, parentModel: SCRIPTED_MODEL });
  await harness.stores.batches.createBatch(built.create, { maxItems: built.maxItems });
  const { workflowId } = batchStartOptions(built.workflow);
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.batch, { taskQueue: WORKFLOW_TASK_QUEUE, workflowId, args: [built.workflow] });
  return { batchId: request.batchId, workflowId, handle };
}

async function recordBatch(env: Env, name: string, recipe: FixtureRecipe, item: NonNullable<FixtureRecipe['batch']>['item']): Promise<ReplayFixture[]> {
  const harness = await startHarness(env, recipe.scenario(), recipe.config);
  try {
    const started = await startRecipeBatch(env, harness, name, recipe);
    if (recipe.actAfter !== undefined) {
      await waitForEvents(harness, { runId: started.batchId }, recipe.actAfter);
      if (recipe.actAfter.action.kind !== 'cancelBatch') throw new Error(`${name}: a batch recipe can only cancel its batch`);
      await harness.client.cancelBatch(started.batchId, 'default');
    }
    const state = await started.handle.result();
    const expected = recipe.expectStatus ?? 'completed';
    const itemCount = recipe.batch?.items?.length ?? DEFAULT_BATCH_ITEMS.length;
    if (state.status !== expected || (expected === 'completed' && state.counts.completed !== itemCount)) {
      throw new Error(`${name} batch ended ${state.status} ${JSON.stringify(state.counts)}`);
    }
    await saveHistory(env, started.workflowId, recipe.file, recipe.execution);
    const recorded = [{ file: recipe.file, workflowId: started.workflowId, description: recipe.description }];
    if (item === null) return recorded;
    const itemId = batchItemWorkflowId(started.batchId, item.key);
    await saveHistory(env, itemId, item.file);
    return [...recorded, { file: item.file, workflowId: itemId, description: item.description }];
  } finally {
    await harness.close();
  }
}

/** Waits until the run (or batch) has stored `count` rows of `events`. */
async function waitForEvents(harness: Harness, scope: { runId: string; threadId?: string }, act: NonNullable<FixtureRecipe['actAfter']>): Promise<void> {
  for (;;) {
    const rows = await harness.stores.events.listEvents({ ...scope, eventTypes: [...act.events] });
    if (rows.length >= act.count) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Starts a recipe's lead run through DeerFlowClient, or (plainClient) with the bare Temporal client. */
async function startRecipeRun(env: Env, harness: Harness, request: { message: string; threadId: string; runId: string }, recipe: FixtureRecipe) {
  if (recipe.plainClient !== true) return harness.client.startRun(request);
  const input = buildLeadRunInput(harness.loaded.config, request);
  const { workflowId } = leadRunStartOptions(input);
  const handle = await env.client.workflow.start(WORKFLOW_TYPES.leadRun, { taskQueue: WORKFLOW_TASK_QUEUE, workflowId, args: [input] });
  return { workflowId, handle };
}

/**
 * Kills the subagent worker process (SIGKILL: no goodbye, its execution's lease just expires) and
 * serves the subagent queue from this process instead. Resolves with the new workers' stop.
 */
async function loseSubagentWorker(env: Env, harness: Harness, lost: ChildProcess): Promise<() => Promise<void>> {
  const exited = new Promise((resolve) => lost.once('exit', resolve));
  lost.kill('SIGKILL');
  await exited;
  const takeover = await createWorkers({ connection: env.nativeConnection, namespace: env.namespace ?? 'default', loaded: harness.loaded, stores: harness.stores, queues: 'subagents' });
  const running = takeover.run();
  return async () => {
    takeover.shutdown();
    await running;
  };
}

/** Runs a recipe's lead run to its end, acting on it first when the recipe says so. */
async function runRecipe(env: Env, harness: Harness, name: string, recipe: FixtureRecipe, subagentProcess: ChildProcess | null) {
  const request = { message: name, threadId: `replay-${name}`, runId: 'run-1' };
  const started = await startRecipeRun(env, harness, request, recipe);
  const act = recipe.actAfter;
  let stopTakeover: () => Promise<void> = async () => undefined;
  try {
    if (act !== undefined) {
      await waitForEvents(harness, { runId: request.runId, threadId: request.threadId }, act);
      const { action } = act;
      if (action.kind === 'cancel') await started.handle.cancel();
      else if (action.kind === 'cancelTask') await harness.client.cancelTask(started.workflowId, action.taskId);
      else if (action.kind === 'extendTask') await harness.client.extendTask(started.workflowId, action.taskId, action.seconds);
      else if (action.kind === 'answer') await harness.client.answer(started.workflowId, action.answer);
      else if (action.kind === 'loseSubagentWorker' && subagentProcess !== null) stopTakeover = await loseSubagentWorker(env, harness, subagentProcess);
      else throw new Error(`${name}: a lead run recipe cannot ${action.kind}`);
    }
    await started.handle.result().catch(() => undefined);
    return { state: await harness.client.getState(started.workflowId), workflowId: started.workflowId };
  } finally {
    await stopTakeover();
  }
}

/** Records a lead run; a recipe that loses its subagent worker first starts that worker as a process of its own. */
async function recordRun(env: Env, name: string, recipe: FixtureRecipe): Promise<ReplayFixture[]> {
  const losesWorker = recipe.actAfter?.action.kind === 'loseSubagentWorker';
  const harness = await startHarness(env, recipe.scenario(), recipe.config, losesWorker || recipe.noSubagentWorker === true ? { queues: 'workflows' } : {});
  let subagentProcess: ChildProcess | null = null;
  try {
    if (losesWorker) subagentProcess = await startSubagentWorkerProcess(join(harness.dir, 'config.yaml'), env.address);
    const { state, workflowId } = await runRecipe(env, harness, name, recipe, subagentProcess);
    if (state.status !== (recipe.expectStatus ?? 'completed')) throw new Error(`${name} run ended ${state.status}: ${state.error ?? ''}`);
    await saveHistory(env, workflowId, recipe.file, recipe.execution);
    return [{ file: recipe.file, workflowId, description: recipe.description }];
  } finally {
    if (subagentProcess !== null && subagentProcess.exitCode === null && subagentProcess.signalCode === null) subagentProcess.kill('SIGKILL');
    await harness.close();
  }
}

async function record(name: string, recipe: FixtureRecipe): Promise<ReplayFixture[]> {
  const env = await createTestEnv();
  try {
    return recipe.batch ? await recordBatch(env, name, recipe, recipe.batch.item) : await recordRun(env, name, recipe);
  } finally {
    await env.teardown();
  }
}

async function main(names: readonly string[]): Promise<void> {
  installWorkerRuntime({ level: 'WARN' });
  const wanted = names.length > 0 ? names : Object.keys(RECIPES);
  const manifest = new Map(readManifest().map((f) => [f.file, f]));
  for (const name of wanted) {
    const recipe = RECIPES[name];
    if (recipe === undefined) throw new Error(`Unknown fixture '${name}'. Known: ${Object.keys(RECIPES).join(', ')}`);
    for (const fixture of await record(name, recipe)) {
      manifest.set(fixture.file, fixture);
      process.stdout.write(`recorded ${fixture.file} (${fixture.workflowId})\n`);
    }
  }
  writeFileSync(MANIFEST_PATH, `${JSON.stringify([...manifest.values()], null, 2)}\n`);
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
