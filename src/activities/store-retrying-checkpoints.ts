import type { RunnableConfig } from '@langchain/core/runnables';
import {
  BaseCheckpointSaver,
  type ChannelVersions,
  type Checkpoint,
  type CheckpointListOptions,
  type CheckpointMetadata,
  type CheckpointTuple,
  type PendingWrite,
} from '@langchain/langgraph-checkpoint';
import { untilStored } from './until-stored';

/**
 * A subagent's checkpointer as its execution uses it: every read and write of the store's saver
 * is retried until the store answers, as the execution's other store writes are. A checkpoint that
 * fails to write would otherwise fail the graph step and turn a store restart into a failed task.
 * Only for use inside an activity (the retries follow its cancellation).
 */
export class StoreRetryingCheckpoints extends BaseCheckpointSaver {
  constructor(private readonly inner: BaseCheckpointSaver) {
    super(inner.serde);
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return untilStored(() => this.inner.getTuple(config));
  }

  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.inner.list(config, options);
  }

  put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return untilStored(() => this.inner.put(config, checkpoint, metadata, newVersions));
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return untilStored(() => this.inner.putWrites(config, writes, taskId, taskPath));
  }

  deleteThread(threadId: string): Promise<void> {
    return untilStored(() => this.inner.deleteThread(threadId));
  }

  // Version formats are the saver's own (PostgreSQL's are strings): never the base class's.
  override getNextVersion(current: number | undefined): number {
    return this.inner.getNextVersion(current);
  }

  override getDeltaChannelHistory(options: Parameters<BaseCheckpointSaver['getDeltaChannelHistory']>[0]): ReturnType<BaseCheckpointSaver['getDeltaChannelHistory']> {
    return this.inner.getDeltaChannelHistory(options);
  }
}
