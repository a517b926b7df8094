import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  isCancellation,
  patched,
  setCurrentDetails,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { BatchItemCounts, BatchItemStatus, BatchState, BatchWorkflowInput, CancelBatchResult } from '../contracts';
import { pendingBatchCounts } from '../contracts/batch-counts';
import { BATCH_STORE_INVALID_TYPE, INVALID_INPUT_TYPE, isApplicationFailureOf } from '../contracts/failure-types';
import { formatZodIssues } from '../contracts/format-zod-issues';
import { batchSearchAttributes, missingSearchAttributes } from '../contracts/identity-search-attributes';
import { SA_ITEMS_DONE, SA_ITEMS_TOTAL, SA_RUN_STATUS } from '../contracts/search-attributes';
import { batchStore } from './activity-proxies';
import { runBatchItemChild } from './batch-item-child';
import { batchItemWorkflowId, batchStateQuery, cancelBatchUpdate, itemSlotGrantedSignal, releaseItemSlotSignal, requestItemSlotSignal } from './batch-messages';
import { countsAfterPoll, openItems } from './batch-earlier-items';
import { EarlierItemsWatch } from './batch-earlier-items-watch';
import { BatchKeyFeed } from './batch-key-feed';
import { BatchSlotArbiter } from './batch-slot-arbiter';
import { BATCH_KEY_PAGE, itemsToStart, progressStride, shouldContinueAsNew } from './batch-window';
import { inputSchemas } from './input-schemas';
import { WORKFLOW_PATCHES } from './patches';

const TERMINAL: readonly BatchItemStatus[] = ['completed', 'failed', 'cancelled', 'timed_out'];

function doneCount(counts: BatchItemCounts): number {
  return TERMINAL.reduce((n, status) => n + counts[status], 0);
}

/**
 * One durable batch (SPEC Appendix C.3). The batch and its items are already rows in the
 * BatchStore; this workflow starts one `batchItemWorkflow` per item in key order, in a sliding
 * window of `maxLiveItems`, and continues as new before its history grows large. The live items
 * run on meanwhile (patch `batch-items-outlive-runs`): the next run counts them in its window and
 * polls the store until they end. Older batches let them finish first. At most `maxRunningItems`
 * items execute at once: each holds one of the batch's leases in the store while it runs (patch
 * `batch-item-leases`); batches started before handed out running slots by signal instead.
 * `cancelBatch` cancels every nonterminal item in the store at once, then the live item workflows.
 */
export async function batchWorkflow(rawInput: BatchWorkflowInput): Promise<BatchState> {
  const parsed = inputSchemas.batch().safeParse(rawInput);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(`Invalid batch input: ${formatZodIssues(parsed.error.issues, '(input)')}`, INVALID_INPUT_TYPE);
  }
  const input = parsed.data;
  const { runtime } = input;
  // Decided once, at start: batches started before it had only the attributes their starter set.
  const identity = patched(WORKFLOW_PATCHES.identitySearchAttributes)
    ? missingSearchAttributes(workflowInfo().typedSearchAttributes, batchSearchAttributes(input))
    : [];
  // Decided once, at start: older batches handed out running slots themselves (items lease them now).
  const leases = patched(WORKFLOW_PATCHES.batchItemLeases);
  // Decided once, at start: older batches started every item the window allowed, each asking for its slot.
  const slotsWithStart = !leases && patched(WORKFLOW_PATCHES.batchSlotsWithStart);
  // Decided once, at start: older batches waited for their live items before continuing as new.
  const outlive = leases && patched(WORKFLOW_PATCHES.batchItemsOutliveRuns);
  // Query `state` is answered from the first activation on, before the store is read: with the
  // counts the previous run handed over (a new batch: every item pending), never "no handler".
  const state: BatchState = {
    batchId: runtime.batchId,
    status: 'running',
    itemCount: input.itemCount,
    counts: { ...(input.cursor.counts ?? pendingBatchCounts(input.itemCount)) },
    liveItems: 0,
    runningItems: 0,
    continuedRuns: input.cursor.continuedRuns,
  };
  // A leased batch's running items follow its live ones (an upper bound: the store knows which
  // hold a lease), derived when read, so they are current also while the loop awaits a store read.
  const running = () => (leases && state.status === 'running' ? Math.min(state.liveItems, input.maxRunningItems) : state.runningItems);
  setHandler(batchStateQuery, () => ({ ...state, runningItems: running() }));
  const stored = await batchStore.loadBatchProgress({ batchId: runtime.batchId, ownerId: runtime.ownerId });
  state.status = stored.status;
  state.counts = { ...stored.counts };
  if (state.status !== 'running') return state;

  const items = new CancellationScope();
  const slots = new BatchSlotArbiter(input.maxRunningItems);
  let cancelled: CancelBatchResult | null = null;
  let changed = false;
  const touch = () => {
    changed = true;
  };
  // Items earlier runs started (keys up to the cursor) and left running: in this run's window.
  const earlier = outlive && input.cursor.afterKey !== null ? await EarlierItemsWatch.start(runtime, input.cursor.afterKey, touch) : null;
  if (earlier !== null) {
    state.counts = earlier.runCountsAtStart(input.itemCount);
    state.liveItems = earlier.open;
  }
  setHandler(requestItemSlotSignal, ({ key }) => {
    slots.request(key);
    touch();
  });
  setHandler(releaseItemSlotSignal, ({ key }) => {
    slots.release(key);
    touch();
  });
  setHandler(
    cancelBatchUpdate,
    async (request) => {
      // No run is the parent of the items earlier runs started: ask Temporal to cancel them.
      if (earlier !== null) await earlier.cancel();
      // The store next: once this returns, no item can be written `completed` any more.
      const result = await batchStore.cancelBatchItems({ batchId: runtime.batchId, ownerId: request.ownerId });
      cancelled = result;
      state.counts = { ...result.counts };
      items.cancel();
      if (earlier !== null) state.liveItems -= earlier.ended();
      touch();
      return result;
    },
    { validator: (request) => void inputSchemas.cancelBatchRequest().parse(request) },
  );

  upsertSearchAttributes([
    { key: SA_RUN_STATUS, value: 'running' },
    { key: SA_ITEMS_TOTAL, value: input.itemCount },
    { key: SA_ITEMS_DONE, value: doneCount(state.counts) },
    ...identity,
  ]);
  let reportedDone = doneCount(state.counts);
  const reportProgress = (force: boolean) => {
    const done = doneCount(state.counts);
    if (force || done - reportedDone >= progressStride(input.itemCount)) {
      upsertSearchAttributes([{ key: SA_ITEMS_DONE, value: done }]);
      reportedDone = done;
    }
    setCurrentDetails(
      `**${state.status}** · ${done}/${input.itemCount} done (${state.counts.completed} completed, ${state.counts.failed} failed, ` +
        `${state.counts.cancelled} cancelled, ${state.counts.timed_out} timed out) · live ${state.liveItems} · running ${running()}`,
    );
  };

  // Items started but not yet known to Temporal: a run continues as new only once there are none.
  let starting = 0;
  const startItem = (key: string) => {
    state.liveItems += 1;
    state.counts.pending -= 1;
    state.counts.running += 1;
    if (slotsWithStart) slots.hold(key);
    let started = !outlive;
    const onStarted = () => {
      if (started) return;
      started = true;
      starting -= 1;
      touch();
    };
    if (outlive) starting += 1;
    void runBatchItemChild(items, input, key, leases ? { leased: true } : slotsWithStart ? { slotGranted: true } : {}, outlive ? { started: onStarted } : undefined)
      .then((status) => {
        if (cancelled === null) {
          state.counts.running -= 1;
          if (status !== 'pending' && status !== 'running') state.counts[status] += 1;
        }
      })
      .finally(() => {
        onStarted();
        state.liveItems -= 1;
        slots.ended(key);
        touch();
      });
  };

  const grantSlots = () => {
    for (const key of slots.grant()) {
      // The item may have ended meanwhile; then its slot is freed when its workflow completes.
      getExternalWorkflowHandle(batchItemWorkflowId(runtime.batchId, key))
        .signal(itemSlotGrantedSignal)
        .catch(() => slots.release(key));
    }
    state.runningItems = slots.running;
  };

  const keys = new BatchKeyFeed((afterKey) => batchStore.nextBatchItems({ batchId: runtime.batchId, afterKey, limit: BATCH_KEY_PAGE }), input.cursor.afterKey);
  let draining = false;
  try {
    for (;;) {
      draining ||= shouldContinueAsNew({ length: workflowInfo().historyLength, suggested: workflowInfo().continueAsNewSuggested }, input.historyEventLimit);
      const polled = earlier?.due ? await earlier.poll() : null;
      if (polled !== null) {
        state.counts = countsAfterPoll(state.counts, polled.before, polled.after);
        state.liveItems -= openItems(polled.before) - openItems(polled.after);
      }
      // Items waiting for a slot (to try again) get theirs before new items start with one.
      if (slotsWithStart) grantSlots();
      const stopping = cancelled !== null || draining || keys.exhausted;
      let room = itemsToStart({ live: state.liveItems, maxLive: input.maxLiveItems, stopping, ...(slotsWithStart ? { freeSlots: slots.free } : {}) });
      while (room > 0) {
        if (!keys.buffered) {
          await keys.refill();
          if (keys.exhausted || cancelled !== null) break;
          // A request that arrived meanwhile is owed the slot.
          if (slotsWithStart && slots.free < 1) break;
        }
        startItem(keys.take());
        room -= 1;
      }
      // With leases every live item may be running, up to the limit: the store knows which.
      if (!leases) grantSlots();
      reportProgress(false);
      // Continue as new at once: the live items run on, and the next run counts them in.
      if (outlive && draining && starting === 0 && !keys.exhausted && cancelled === null) break;
      if (state.liveItems === 0 && (keys.exhausted || cancelled !== null || draining)) break;
      earlier?.arm();
      changed = false;
      await condition(() => changed);
    }
  } catch (err) {
    if (!isCancellation(err)) throw err;
    // The batch workflow itself was cancelled (not through cancelBatch): cancel its items in the store too.
    await CancellationScope.nonCancellable(async () => {
      if (earlier !== null) await earlier.cancel();
      await batchStore.cancelBatchItems({ batchId: runtime.batchId, ownerId: runtime.ownerId });
    });
    upsertSearchAttributes([{ key: SA_RUN_STATUS, value: 'cancelled' }]);
    throw err;
  }

  if (cancelled === null && !keys.exhausted) {
    await condition(allHandlersFinished);
    return continueAsNew<typeof batchWorkflow>({ ...input, cursor: { afterKey: keys.afterKey, continuedRuns: input.cursor.continuedRuns + 1, counts: { ...state.counts } } });
  }
  const final = await finishInStore(runtime.batchId, cancelled !== null);
  state.status = final.status;
  state.counts = { ...final.counts };
  state.runningItems = 0;
  reportProgress(true);
  upsertSearchAttributes([{ key: SA_RUN_STATUS, value: state.status }]);
  await condition(allHandlersFinished);
  return state;
}

/**
 * Ends the batch in the store. `completed` needs every item terminal; an item whose workflow
 * could not write its row (it never started) leaves the batch `failed`, its row `cancelled`.
 */
async function finishInStore(batchId: string, cancelled: boolean) {
  if (cancelled) return batchStore.finishBatch({ batchId, status: 'cancelled' });
  try {
    return await batchStore.finishBatch({ batchId, status: 'completed' });
  } catch (err) {
    if (!isApplicationFailureOf(err, BATCH_STORE_INVALID_TYPE)) throw err;
    return batchStore.finishBatch({ batchId, status: 'failed' });
  }
}
