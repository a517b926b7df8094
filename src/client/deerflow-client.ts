import { randomUUID } from 'node:crypto';
import type { Client, WorkflowHandle, WorkflowHandleWithStartDetails } from '@temporalio/client';
import type { AppConfig } from '../config';
import { WorkflowExecutionAlreadyStartedError, WorkflowUpdateFailedError } from '@temporalio/client';
import type { AgentDefinitionStore } from '../store/agent-definition-store';
import { claimThread, type BatchStore, type RunEventStore, type ThreadOwnerStore } from '../store';
import { streamRunEvents, type StreamRunEventsOptions } from './stream-run-events';
import {
  WORKFLOW_TYPES,
  type BatchItemRecord,
  type BatchItemSummary,
  type BatchRecord,
  type BatchState,
  type BatchWorkflowInput,
  type CancelBatchResult,
  type CancelTaskResult,
  type AnswerClarificationResult,
  type ExtendTaskResult,
  type ListBatchItemsQuery,
  type LeadRunInput,
  type LeadRunState,
  type RunEvent,
  type ThreadOwnerRecord,
} from '../contracts';
import { answerClarificationUpdate, cancelTaskUpdate, extendTaskUpdate, leadRunStateQuery } from '../workflows/lead-run-messages';
import { batchStateQuery, batchWorkflowId, cancelBatchUpdate } from '../workflows/batch-messages';
import { buildBatch, readManagedDefinitions, resolveCatalog, type BatchRequest } from '../registry';
import { buildLeadRunInput, type RunRequest } from './build-run-input';
import { batchStartOptions, leadRunStartOptions } from './start-options';

/** A started lead run. */
export interface StartedRun {
  readonly workflowId: string;
  readonly runId: string;
  readonly threadId: string;
  readonly input: LeadRunInput;
  /**
   * Its results and `firstExecutionRunId` follow the run across continue-as-new; `eagerlyStarted`
   * says whether a worker of this process took its first workflow task at start.
   */
  readonly handle: WorkflowHandleWithStartDetails;
}

export type StartRunRequest = Omit<RunRequest, 'runId' | 'threadId'> & { runId?: string; threadId?: string };

/** A started batch. */
export interface StartedBatch {
  readonly batchId: string;
  readonly workflowId: string;
  readonly itemCount: number;
  readonly input: BatchWorkflowInput;
  readonly handle: WorkflowHandle;
  /** Whether a worker of this process took the batch's first workflow task at start (see `eagerStart`). */
  readonly eagerlyStarted: boolean;
}

/** What {@link DeerFlowClient.startBatch} takes: the batch id and parent model are optional. */
export type StartBatchRequest = Omit<BatchRequest, 'batchId' | 'parentModel'> & { batchId?: string; modelName?: string };

/** The stores a client reads and writes; each feature needs its own. */
export interface DeerFlowClientStores {
  /** Where administrators store agent definitions; without it only config.yaml definitions exist. */
  readonly agents?: AgentDefinitionStore | null;
  /** Run events, for {@link DeerFlowClient.stream}. */
  readonly events?: RunEventStore | null;
  /** Batches and their items, for every batch method. */
  readonly batches?: BatchStore | null;
  /**
   * Thread owners: with it, `startRun` and `startBatch` claim their thread (batch id) for their
   * user and refuse another user's; without it nothing is claimed or checked.
   */
  readonly threads?: ThreadOwnerStore | null;
}

/** How a {@link DeerFlowClient} starts workflows. */
export interface DeerFlowClientOptions {
  /**
   * Ask for Temporal's eager workflow start: the cluster hands a new run's (or batch's) first
   * workflow task straight to a workflow worker of this process in its answer to the start, which
   * spares the task queue round trip. Only for a `Client` built on the `NativeConnection` of this
   * process's `deerflow` queue worker (the SDK refuses it on any other connection); with no free
   * local worker slot the start is an ordinary one. If the process dies right after a start, that
   * task is retried elsewhere once the workflow task timeout (10 s) passes.
   * @default false
   */
  readonly eagerStart?: boolean;
}

/** A batch that does not exist for this owner (missing, or someone else's). */
export class BatchNotFoundError extends Error {
  override readonly name = 'BatchNotFoundError';
  constructor(readonly batchId: string) {
    super(`batch ${batchId} not found`);
  }
}

/** `cancelTask`/`extendTask` was refused: no such task, it already ended, or no room to extend (`message` says which). */
export class TaskNotCancellableError extends Error {
  override readonly name: string = 'TaskNotCancellableError';
  constructor(
    readonly taskId: string,
    message: string,
  ) {
    super(message);
  }
}

/** `extendTask` was refused: no such task, it already ended, or its deadline cannot move further. */
export class TaskNotExtendableError extends TaskNotCancellableError {
  override readonly name = 'TaskNotExtendableError';
}

/** `answer` was refused: the run is not waiting for an answer (or already has one). */
export class RunNotWaitingError extends Error {
  override readonly name = 'RunNotWaitingError';
}

/** Starts and inspects lead runs and batches on a Temporal cluster. */
export class DeerFlowClient {
  private readonly agents: AgentDefinitionStore | null;
  private readonly events: RunEventStore | null;
  private readonly batches: BatchStore | null;
  private readonly threads: ThreadOwnerStore | null;
  private readonly eagerStart: boolean;

  constructor(
    private readonly temporal: Client,
    private readonly config: AppConfig,
    stores: DeerFlowClientStores = {},
    options: DeerFlowClientOptions = {},
  ) {
    this.agents = stores.agents ?? null;
    this.events = stores.events ?? null;
    this.batches = stores.batches ?? null;
    this.threads = stores.threads ?? null;
    this.eagerStart = options.eagerStart ?? false;
  }

  /**
   * Starts a lead run. Config and stored agent definitions are snapshotted into the workflow input
   * now: later edits never change a running run's policy, limits or catalog. With the thread store,
   * the thread is claimed for the run's user first (a new thread becomes theirs).
   * @throws ThreadOwnerError `owned_by_another` when the thread is another user's (nothing started).
   */
  async startRun(request: StartRunRequest): Promise<StartedRun> {
    const managed = this.agents ? await readManagedDefinitions(this.agents) : undefined;
    const input = buildLeadRunInput(
      this.config,
      { ...request, runId: request.runId ?? `run_${randomUUID()}`, threadId: request.threadId ?? `thread_${randomUUID()}` },
      managed,
    );
    // After validation (a refused request claims nothing), before the start (no run of this user
    // ever lands in another user's thread).
    if (this.threads !== null) await claimThread(this.threads, input.threadId, input.userId, 'run');
    const options = leadRunStartOptions(input);
    const handle = await this.temporal.workflow.start(WORKFLOW_TYPES.leadRun, { ...options, requestEagerStart: this.eagerStart });
    const { workflowId } = options;
    return { workflowId, runId: input.runId, threadId: input.threadId, input, handle };
  }

  /**
   * The run's events (`subagent.start`, `subagent.step`, `subagent.end`) in order, live until the
   * run closes; resumable with `afterSeq`.
   * @throws Error when this client was built without an event store.
   */
  stream(workflowId: string, runId: string, options: StreamRunEventsOptions = {}): AsyncGenerator<RunEvent> {
    if (this.events === null) throw new Error('DeerFlowClient.stream needs the event store (pass stores.events to the constructor)');
    return streamRunEvents(this.events, this.temporal.workflow.getHandle(workflowId), runId, options);
  }

  /**
   * Cancels one running task of a lead run (update `cancelTask`); the run and its other tasks go
   * on. Resolves once the task is terminal, with the status it ended in.
   * @throws TaskNotCancellableError when the run has no such task or it already ended
   * @throws WorkflowNotFoundError when the run does not exist
   */
  async cancelTask(workflowId: string, taskId: string): Promise<CancelTaskResult> {
    try {
      return await this.temporal.workflow.getHandle(workflowId).executeUpdate(cancelTaskUpdate, { args: [{ taskId }] });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new TaskNotCancellableError(taskId, err.cause?.message ?? err.message);
      throw err;
    }
  }

  /**
   * Moves one running task's deadline (and its safety net) by `seconds` (update `extendTask`), up to
   * the run's `subagent_runtime.max_task_extension_seconds` in total.
   * @throws TaskNotExtendableError when the task is unknown or ended, or the ceiling is reached
   * @throws WorkflowNotFoundError when the run does not exist or is closed
   */
  async extendTask(workflowId: string, taskId: string, seconds: number): Promise<ExtendTaskResult> {
    try {
      return await this.temporal.workflow.getHandle(workflowId).executeUpdate(extendTaskUpdate, { args: [{ taskId, seconds }] });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new TaskNotExtendableError(taskId, err.cause?.message ?? err.message);
      throw err;
    }
  }

  /**
   * Answers the question a lead run is waiting on (`ask_clarification`, update
   * `answerClarification`): the run goes on with the answer as the user's next message.
   * @throws RunNotWaitingError when the run is not waiting for an answer
   * @throws WorkflowNotFoundError when the run does not exist or is closed
   */
  async answer(workflowId: string, answer: string): Promise<AnswerClarificationResult> {
    try {
      return await this.temporal.workflow.getHandle(workflowId).executeUpdate(answerClarificationUpdate, { args: [{ answer }] });
    } catch (err) {
      if (err instanceof WorkflowUpdateFailedError) throw new RunNotWaitingError(err.cause?.message ?? err.message);
      throw err;
    }
  }

  /**
   * Who owns a thread (or batch id), or null when no run or batch has claimed it.
   * @throws Error when this client was built without the thread store.
   */
  async threadOwner(threadId: string): Promise<ThreadOwnerRecord | null> {
    if (this.threads === null) throw new Error('DeerFlowClient.threadOwner needs the thread store (pass stores.threads to the constructor)');
    return this.threads.get(threadId);
  }

  /** Live state of a run (works after it closed, too). */
  async getState(workflowId: string): Promise<LeadRunState> {
    return this.temporal.workflow.getHandle(workflowId).query(leadRunStateQuery);
  }

  /**
   * Starts a batch: validates every item (nothing is stored when one is bad), writes the batch and
   * its items, then starts its workflow. Starting the same `batchId` with the same items again
   * returns the running batch instead of a second one. With the thread store, the batch id (its
   * items' thread) is claimed for the owner before anything is stored.
   * @throws Error naming the field of a bad request (`items.2.prompt: must not be empty`).
   * @throws ThreadOwnerError `owned_by_another` when the batch id is another user's thread.
   */
  async startBatch(request: StartBatchRequest): Promise<StartedBatch> {
    const batches = this.requireBatches('startBatch');
    const managed = this.agents ? await readManagedDefinitions(this.agents) : undefined;
    const { modelName, batchId, ...rest } = request;
    const parentModel = modelName ?? this.config.default_model ?? this.config.models[0]?.name;
    if (parentModel === undefined) throw new Error('model: no chat model is configured (add one under `models` in config.yaml)');
    if (!this.config.models.some((m) => m.name === parentModel)) throw new Error(`model: "${parentModel}" is not a configured model`);
    const built = buildBatch(this.config, resolveCatalog(this.config, null, managed?.subagents), {
      ...rest,
      batchId: batchId ?? `batch_${randomUUID()}`,
      parentModel,
    });
    const { batchId: id, ownerId, threadId } = built.workflow.runtime;
    // The batch id names a thread, and the items work in `threadId` (the batch id unless given):
    // both become the owner's before the batch row exists, so none is written in another's thread.
    if (this.threads !== null) for (const thread of new Set([id, threadId])) await claimThread(this.threads, thread, ownerId, 'batch');
    await batches.createBatch(built.create, { maxItems: built.maxItems });
    const options = batchStartOptions(built.workflow);
    const { workflowId } = options;
    let eagerlyStarted = false;
    try {
      ({ eagerlyStarted } = await this.temporal.workflow.start(WORKFLOW_TYPES.batch, { ...options, requestEagerStart: this.eagerStart }));
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    }
    return { batchId: id, workflowId, itemCount: built.create.items.length, input: built.workflow, handle: this.temporal.workflow.getHandle(workflowId), eagerlyStarted };
  }

  /** The batch with its counts, or null when it is missing or not `ownerId`'s. */
  async getBatch(batchId: string, ownerId: string): Promise<BatchRecord | null> {
    return this.requireBatches('getBatch').getBatch(batchId, ownerId);
  }

  /** One page of a batch's items in key order (results as previews); empty for another owner. */
  async listBatchItems(batchId: string, ownerId: string, query: ListBatchItemsQuery): Promise<BatchItemSummary[]> {
    return this.requireBatches('listBatchItems').listItems(batchId, ownerId, query);
  }

  /** Every item of the batch in key order, full records, read page by page. */
  exportBatchItems(batchId: string, ownerId: string): AsyncIterable<BatchItemRecord> {
    return this.requireBatches('exportBatchItems').exportItems(batchId, ownerId);
  }

  /** Live state of a batch workflow (counts, live and running items). */
  async getBatchState(batchId: string): Promise<BatchState> {
    return this.temporal.workflow.getHandle(batchWorkflowId(batchId)).query(batchStateQuery);
  }

  /**
   * Cancels a batch for its owner and returns once every nonterminal item is `cancelled` in the
   * store. A batch that already finished is left as it is (`cancelledItems: 0`).
   * @throws BatchNotFoundError when the batch is missing or not `ownerId`'s.
   */
  async cancelBatch(batchId: string, ownerId: string): Promise<CancelBatchResult> {
    const batches = this.requireBatches('cancelBatch');
    const batch = await batches.getBatch(batchId, ownerId);
    if (batch === null) throw new BatchNotFoundError(batchId);
    if (batch.status !== 'running') return { cancelledItems: 0, counts: batch.counts };
    try {
      return await this.temporal.workflow.getHandle(batchWorkflowId(batchId)).executeUpdate(cancelBatchUpdate, { args: [{ ownerId }] });
    } catch (err) {
      // The workflow closed between the read and the update: the store decides.
      const outcome = await batches.cancelBatch(batchId, ownerId).catch(() => null);
      if (outcome === null) throw err;
      return { cancelledItems: outcome.cancelledItems, counts: outcome.batch.counts };
    }
  }

  private requireBatches(method: string): BatchStore {
    if (this.batches === null) throw new Error(`DeerFlowClient.${method} needs the batch store (pass stores.batches to the constructor)`);
    return this.batches;
  }
}
