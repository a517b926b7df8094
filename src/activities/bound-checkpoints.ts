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
import type { ConversationCheckpoints } from './conversation-checkpoints';
import type { ExecutionSlot } from './execution-slot';

/**
 * The checkpointer a pooled subagent agent is built with: every call goes to the checkpointer of
 * the execution bound to it now (a LangGraph checkpointer is fixed when the graph is compiled).
 * Serialization and version formats are the store's saver's, the same for every execution.
 */
export class BoundCheckpoints extends BaseCheckpointSaver {
  constructor(
    private readonly slot: ExecutionSlot,
    private readonly store: BaseCheckpointSaver,
  ) {
    super(store.serde);
  }

  get #bound(): ConversationCheckpoints {
    const { checkpointer } = this.slot.current;
    if (checkpointer === null) throw new Error('the execution bound to a checkpointing subagent agent has no checkpointer');
    return checkpointer;
  }

  getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    return this.#bound.getTuple(config);
  }

  list(config: RunnableConfig, options?: CheckpointListOptions): AsyncGenerator<CheckpointTuple> {
    return this.#bound.list(config, options);
  }

  put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    return this.#bound.put(config, checkpoint, metadata, newVersions);
  }

  putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    return this.#bound.putWrites(config, writes, taskId, taskPath);
  }

  deleteThread(threadId: string): Promise<void> {
    return this.#bound.deleteThread(threadId);
  }

  override getNextVersion(current: number | undefined): number {
    return this.store.getNextVersion(current);
  }

  override getDeltaChannelHistory(options: Parameters<BaseCheckpointSaver['getDeltaChannelHistory']>[0]): ReturnType<BaseCheckpointSaver['getDeltaChannelHistory']> {
    return this.#bound.getDeltaChannelHistory(options);
  }
}
