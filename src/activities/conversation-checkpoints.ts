import type { RunnableConfig } from '@langchain/core/runnables';
import type { ChannelVersions, Checkpoint, CheckpointMetadata, PendingWrite } from '@langchain/langgraph-checkpoint';
import { StoreRetryingCheckpoints } from './store-retrying-checkpoints';

/**
 * A subagent's checkpointer that stores a checkpoint only when the conversation changed: the
 * input, each model response, each round of tool results, a compaction. The middleware chain's
 * hooks are graph steps of their own (four steps for a one-turn task, nine before they were
 * folded into one node per hook kind), and writing every one of them cost a fifth of a task's CPU. A resume starts from the last stored checkpoint and runs the hooks
 * after it again; they are functions of the state, so they decide the same. Writes of a step
 * whose checkpoint was not stored are not stored either (a resume reruns that step).
 *
 * Savers that keep channels apart (PostgreSQL) store the values named in `newVersions`: a stored
 * checkpoint names every channel that changed since the last stored one.
 */
export class ConversationCheckpoints extends StoreRetryingCheckpoints {
  /** Per thread: its last stored checkpoint, the conversation in it, and the channels changed since. */
  readonly #threads = new Map<string, { unstored: ChannelVersions; lastStored: string; conversation: string }>();

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const key = threadKey(config);
    const thread = this.#threads.get(key);
    const unstored = { ...thread?.unstored, ...newVersions };
    const conversation = conversationOf(checkpoint);
    if (thread !== undefined && thread.conversation === conversation) {
      thread.unstored = unstored;
      return { configurable: { ...config.configurable, checkpoint_id: checkpoint.id } };
    }
    const stored = await super.put(config, checkpoint, metadata, unstored);
    this.#threads.set(key, { unstored: {}, lastStored: checkpoint.id, conversation });
    return stored;
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const id: unknown = config.configurable?.checkpoint_id;
    if (id === undefined || this.#threads.get(threadKey(config))?.lastStored !== id) return;
    await super.putWrites(config, writes, taskId, taskPath);
  }
}

function threadKey(config: RunnableConfig): string {
  return JSON.stringify([config.configurable?.thread_id, config.configurable?.checkpoint_ns ?? '']);
}

/**
 * What identifies the conversation of a checkpoint: its length and its first and last message ids.
 * A hook step writes the message channel again without changing it; a new message or a compaction
 * changes one of the three.
 */
function conversationOf(checkpoint: Checkpoint): string {
  const messages = checkpoint.channel_values['messages'];
  if (!Array.isArray(messages)) return '';
  const idOf = (m: unknown) => (typeof m === 'object' && m !== null && 'id' in m ? String(m.id) : '');
  return JSON.stringify([messages.length, idOf(messages[0]), idOf(messages.at(-1))]);
}
