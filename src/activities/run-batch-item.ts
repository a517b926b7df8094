import { log } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import {
  BATCH_ITEM_FENCED_TYPE,
  BATCH_LEASE_WAIT_TIMEOUT_TYPE,
  type BatchItemExecution,
  type BatchItemRunInput,
  type BatchItemRunResult,
  type SubagentExecutionResult,
} from '../contracts';
import type { BatchStore, ItemLeaseOutcome, ItemWriteOutcome } from '../store';
import type { ItemEndWriter } from './batch-item-end';
import type { BatchLeaseWaiters } from './batch-lease-waiters';
import { isWorkerShutdownFailure, rethrowIfCancelled, withHeartbeats } from './heartbeat';
import { parseActivityInput } from './parse-activity-input';
import type { SubagentExecutor } from './run-subagent';
import { untilStored } from './until-stored';

/** A held lease is renewed this many times per lease length, so one missed renewal never loses it. */
const RENEWALS_PER_LEASE = 3;

/**
 * Builds the `runBatchItem` activity: one try of a batch item, run only while it holds one of its
 * batch's running leases (at most `max_running_items` items of a batch hold one, across every
 * worker). The try takes the lease (which also marks the item `running` in this attempt), waits
 * for one while the batch is full, keeps it renewed while the subagent runs, and gives it back at
 * the end, waking the next try of the same batch waiting in this process. A completed try writes
 * the item's end itself (which gives the lease back too): the item workflow then has nothing left
 * to write, one activation and one local activity fewer per item.
 */
export function createRunBatchItem(batches: BatchStore, execute: SubagentExecutor, writeItemEnd: ItemEndWriter, waiters: BatchLeaseWaiters) {
  return async function runBatchItem(raw: BatchItemRunInput): Promise<BatchItemRunResult> {
    const { item, leaseSeconds, pollIntervalSeconds, timeoutSeconds } = parseActivityInput('runBatchItem', raw);
    const leaseMs = leaseSeconds * 1000;
    const acquire = () => batches.acquireItemLease(item.batchId, item.key, item.attempt, leaseMs);
    try {
      await withHeartbeats((signal) => waitForLease(item, acquire, { leaseMs, pollMs: pollIntervalSeconds * 1000, signal }, waiters));
    } catch (err) {
      // Stopped by its worker's shutdown before it held a lease, the try never ran: a capacity wait
      // (no attempt used), not a lost attempt.
      if (!isWorkerShutdownFailure(err)) throw err;
      throw ApplicationFailure.nonRetryable(
        `The worker shut down while attempt ${item.attempt} of batch item ${item.key} waited for a running slot; it waits again`,
        BATCH_LEASE_WAIT_TIMEOUT_TYPE,
      );
    }
    const renewal = setInterval(() => void renew(item, acquire), leaseMs / RENEWALS_PER_LEASE);
    let finished: ItemWriteOutcome | null = null;
    try {
      // The execution cap runs from the lease: the wait for it is not the subagent's time.
      const result = await execute(item, timeoutSeconds === undefined ? {} : { deadlineSeconds: timeoutSeconds });
      // No renewal while the end is written: the terminal write gives the lease back.
      clearInterval(renewal);
      if (result.status === 'completed') finished = await writeCompleted(writeItemEnd, item, result);
      return { result, finished };
    } finally {
      clearInterval(renewal);
      // An item whose end is written holds no lease any more.
      if (finished === null) {
        // A release that fails leaves the lease to expire: the batch runs one item fewer meanwhile.
        await batches.releaseItemLease(item.batchId, item.key, item.attempt).catch((err: unknown) => {
          log.warn('Could not give a batch lease back; it expires by itself', { batchId: item.batchId, key: item.key, error: String(err) });
        });
      }
      waiters.released(item.batchId);
    }
  };
}

/**
 * The end of a completed try, as the item workflow would write it. A write that fails is left to
 * the workflow (null), which retries it as a local activity.
 */
async function writeCompleted(writeItemEnd: ItemEndWriter, item: BatchItemExecution, result: SubagentExecutionResult): Promise<ItemWriteOutcome | null> {
  try {
    return await writeItemEnd(
      { batchId: item.batchId, ownerId: item.userId, threadId: item.threadId, subagentName: item.subagentType },
      {
        key: item.key,
        status: 'completed',
        resultRef: result.resultRef,
        resultSha256: result.resultSha256,
        stopReason: result.stopReason,
        error: null,
        attempts: item.attempt,
        modelName: result.modelName,
        usage: result.usage,
        // The lease set `started_at` when the first try took it.
        startedAt: null,
        completedAt: new Date().toISOString(),
      },
    );
  } catch (err) {
    log.warn('Could not write a completed batch item; its workflow writes it', { batchId: item.batchId, key: item.key, error: String(err) });
    return null;
  }
}

interface LeaseWait {
  readonly leaseMs: number;
  readonly pollMs: number;
  readonly signal: AbortSignal;
}

/**
 * Takes the item's lease, waiting while its batch is full: woken by a lease released in this
 * process, or after a poll interval. Waits at most one lease length, then ends the try as a
 * capacity wait (no attempt used); a fenced item (terminal, or taken over) ends it at once.
 */
async function waitForLease(item: BatchItemExecution, acquire: () => Promise<ItemLeaseOutcome>, wait: LeaseWait, waiters: BatchLeaseWaiters): Promise<void> {
  const giveUpAt = Date.now() + wait.leaseMs;
  for (;;) {
    const outcome = await untilStored(acquire);
    if (outcome.kind === 'leased') return;
    if (outcome.kind === 'fenced') {
      throw ApplicationFailure.nonRetryable(`Batch item ${item.key} is ${outcome.status} already; attempt ${item.attempt} does not run`, BATCH_ITEM_FENCED_TYPE);
    }
    const left = giveUpAt - Date.now();
    if (left <= 0) {
      throw ApplicationFailure.nonRetryable(
        `Waited ${wait.leaseMs / 1000}s for a running slot of batch ${item.batchId} (${outcome.leased} of ${outcome.maxRunning} running)`,
        BATCH_LEASE_WAIT_TIMEOUT_TYPE,
      );
    }
    await waiters.wait(item.batchId, Math.min(wait.pollMs, left), wait.signal);
    rethrowIfCancelled(wait.signal);
  }
}

/**
 * Extends a held lease. The run goes on whatever the answer: a lease is lost only to a store that
 * stayed out of reach for a whole lease length, and a fenced item is being cancelled anyway.
 */
async function renew(item: BatchItemExecution, acquire: () => Promise<ItemLeaseOutcome>): Promise<void> {
  try {
    const outcome = await acquire();
    if (outcome.kind !== 'leased') log.warn('A running batch item lost its lease', { batchId: item.batchId, key: item.key, outcome: outcome.kind });
  } catch (err) {
    log.warn('Could not renew a batch lease; trying again at the next renewal', { batchId: item.batchId, key: item.key, error: String(err) });
  }
}
