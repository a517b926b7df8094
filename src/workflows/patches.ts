/**
 * Patch markers of leadRunWorkflow, batchWorkflow and batchItemWorkflow. Each guards a change of the command sequence so that runs
 * recorded before it replay unchanged (tests/replay/histories holds a history of each era).
 */
export const WORKFLOW_PATCHES = {
  /** The delegation limit: older runs dispatched every `task` call. */
  delegationLimit: 'delegation-limit',
  /** The per-task safety-net timer (`polling_timed_out`). */
  pollingSafetyNet: 'task-polling-safety-net',
  /** The admission check before a response's tasks are scheduled. */
  admission: 'subagent-admission',
  /** `batch_task` runs a child batch workflow; older runs answered it as an unknown tool. */
  batchTask: 'batch-task',
  /**
   * Calls keyed by the run's own ids (`<turn>.<index>`), the lead's own tools as `runLeadTool`
   * activities, refused tasks as failed tasks, outcomes written as soon as known, unanswered calls
   * closed. Older runs keyed calls by the provider's id and answered other tools as unknown.
   */
  leadCalls: 'lead-calls',
  /**
   * Lead guardrails: the error-fallback marker fails the run, length and safety finishes end it,
   * token budget and loop detection warn (request-only) and then strip the calls. Older runs did not.
   */
  leadGuards: 'lead-guards',
  /** A long lead run continues as new between turns, carrying its state; older runs never did. */
  leadContinueAsNew: 'lead-continue-as-new',
  /** `ask_clarification`: the run asks the user and waits durably for update `answerClarification`. */
  leadClarification: 'lead-clarification',
  /**
   * Extendable task deadlines: the execution enforces its own timeout (asking the run for
   * extensions), the activity's start-to-close is a backstop, and the safety net re-arms on
   * `extendTask`. Older runs had a fixed start-to-close timeout and a fixed safety-net timer.
   */
  taskDeadlines: 'task-deadlines',
  /**
   * Lead runs and batches upsert their identifying search attributes (thread, user, agent; batch,
   * owner, subagent) that their starter did not set, so a run started by any Temporal client is
   * found by thread and user. Older runs relied on the starter; their first upsert held the status only.
   */
  identitySearchAttributes: 'identity-search-attributes',
  /**
   * batchWorkflow starts an item only when a running slot is free for it and passes the slot with
   * the start (`slotGranted`): the item's first try needs no request/grant signals. Older batches
   * started every item the window allowed, each asking for its slot by signal.
   */
  batchSlotsWithStart: 'batch-slots-with-start',
  /**
   * batchItemWorkflow starts a try with one local activity (`startBatchItemAttempt`: admission, then
   * the running mark). Older items ran `admitSubagents` and `markBatchItemRunning` one after the other.
   */
  batchItemStartAttempt: 'batch-item-start-attempt',
  /**
   * A lead run's per-task bookkeeping in bursts: one safety-net timer for its tasks in flight, armed
   * for the earliest deadline (and one cancellation scope per task); one `recordToolOutcome` for the
   * outcomes that became known together (in one activation, or while the previous write was in
   * flight); its tasks' search attributes upserted once per such burst, and only when they changed;
   * admission and the outcome writes as local activities (no workflow task of their own). Older
   * runs raced every task against a timer of its own, admitted and wrote per call in activities and
   * upserted per call. One marker for all of it: each marker costs two history events per run.
   */
  batchedTaskBookkeeping: 'batched-task-bookkeeping',
  /**
   * Batch items run as `runBatchItem` on the `deerflow-batch-items` queue, which holds one of the
   * batch's running leases in the store while it runs (and marks the item `running` when it takes
   * it): the batch starts every item its window allows, and items wait on the task queue and for a
   * lease, not for slots handed out by signal. Older batches handed out running slots themselves;
   * older items asked for them, were admitted and marked running before `runSubagent`. Only the
   * batch calls this marker; it starts its items with `leased` in their input.
   */
  batchItemLeases: 'batch-item-leases',
  /**
   * A batch continues as new without waiting for its live items: it starts them abandoned (parent
   * close policy ABANDON), waits only until each has started, and the next run reads the items
   * earlier runs started from the store (keys up to the cursor), polling until they end, ending
   * those whose workflow closed without writing its row, and cancelling them on a batch cancel.
   * Older batches let their live items finish before continuing as new (the window drained).
   */
  batchItemsOutliveRuns: 'batch-items-outlive-runs',
  /**
   * One marker for every lead patch above ({@link LeadPatchId}): a lead run started since records
   * only this one and takes every patched path. Each marker costs a run
   * two history events (the marker and the SDK's `TemporalChangeVersion` upsert), and a run recorded
   * eight of them (sixteen of a one-task run's 46 events), again after every continue-as-new. Runs
   * recorded before it replay through the markers they have. A later lead patch is asked with
   * `patched()` itself: runs with this marker predate it.
   */
  leadPatchesInOne: 'lead-patches-in-one',
  /**
   * The last outcomes of a response are written by the next model step (`leadModelStepWithOutcomes`),
   * not by a `recordToolOutcome` local activity of their own: the workflow task that learns them
   * schedules that step at once. A run that stops or continues as new before the step writes them
   * itself. Like {@link leadPatchesInOne}, and instead of it, this one marker stands for every lead
   * patch ({@link LeadPatchId}) too: a run started since records it alone, so it costs no events.
   */
  leadOutcomesInStep: 'lead-outcomes-in-step',
  /**
   * The tasks' search attributes a response's last outcomes change (`DeerflowSubagents`,
   * `DeerflowStopReasons`) are not upserted in the workflow task that learned them, which only
   * schedules the next model step: they go in the workflow task that handles that step's response,
   * before its calls run, or with the run's closing upsert, or into the attributes it continues as
   * new with. An upsert there is a visibility write of its own, the one a one-task run made between
   * its start and its close (see bench/FINDINGS.md). Like {@link leadOutcomesInStep}, and instead of
   * it, this one marker stands for every lead patch: a run started since records it alone.
   */
  leadTaskAttributesAfterStep: 'lead-task-attributes-after-step',
  /**
   * A run started with `modelSteps: local` runs its model steps as local activities. Asked only by
   * such runs (one more marker for them alone); a run whose first workflow task a worker from before
   * it ran took regular activities, and keeps them on replay.
   */
  leadLocalModelSteps: 'lead-local-model-steps',
} as const;

/**
 * The lead patches {@link WORKFLOW_PATCHES.leadPatchesInOne} (and {@link WORKFLOW_PATCHES.leadOutcomesInStep},
 * {@link WORKFLOW_PATCHES.leadTaskAttributesAfterStep}) stand for.
 */
export type LeadPatchId = (typeof WORKFLOW_PATCHES)[
  | 'delegationLimit'
  | 'pollingSafetyNet'
  | 'admission'
  | 'batchTask'
  | 'leadCalls'
  | 'leadGuards'
  | 'leadContinueAsNew'
  | 'leadClarification'
  | 'taskDeadlines'
  | 'identitySearchAttributes'
  | 'batchedTaskBookkeeping'];
