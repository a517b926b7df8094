import { AIMessage, ToolMessage } from '@langchain/core/messages';
import type { RunnableConfig } from '@langchain/core/runnables';
import type { ChannelVersions, Checkpoint, CheckpointMetadata, CheckpointTuple, PendingWrite } from '@langchain/langgraph-checkpoint';
import { createMiddleware, type AgentMiddleware } from 'langchain';
import { StoreRetryingCheckpoints } from './store-retrying-checkpoints';

/** Name the middleware of {@link ConversationCheckpoints.storeBeforeCalls} registers under. */
export const CHECKPOINT_MIDDLEWARE_NAME = 'ConversationCheckpointsMiddleware';

/** A checkpoint that changed the conversation, held until something could be lost without it. */
interface HeldCheckpoint {
  readonly config: RunnableConfig;
  readonly checkpoint: Checkpoint;
  readonly metadata: CheckpointMetadata;
  /** The channels changed since the last stored checkpoint of the thread. */
  readonly versions: ChannelVersions;
  readonly writes: { writes: PendingWrite[]; taskId: string; taskPath: string | undefined }[];
}

interface ThreadState {
  conversation: string;
  held: HeldCheckpoint | null;
  /** Channels changed since the held checkpoint, or since the last stored one when none is held. */
  unstored: ChannelVersions;
  lastStored: string | null;
}

/**
 * A subagent's checkpointer that stores a checkpoint only when the conversation changed (a model
 * response, a round of tool results, a compaction) and only once something could be lost without
 * it: when a model or tool call starts (see {@link storeBeforeCalls}), or at once while one runs.
 * The middleware chain's hooks are graph steps of their own, and a one-turn task's input,
 * response and hook steps all end before anything new is called: such a task stores none, which
 * spares it the writes, the serialization and the sync of each. A resume starts from the last
 * stored checkpoint and runs the hook steps after it again; they are functions of the state, so
 * they decide the same. A conversation with no model response or tool result yet is never stored:
 * resuming it is starting over. Writes of a step whose checkpoint is not stored are not stored
 * either (a resume reruns that step).
 *
 * Savers that keep channels apart (PostgreSQL) store the values named in `newVersions`: a stored
 * checkpoint names every channel that changed since the last stored one.
 */
export class ConversationCheckpoints extends StoreRetryingCheckpoints {
  readonly #threads = new Map<string, ThreadState>();
  /** Model and tool calls running now. */
  #calls = 0;
  /** Stores in order: a checkpoint's writes never precede it. */
  #storing: Promise<void> = Promise.resolve();
  #storedAny = false;
  /** Threads this saver emptied and stored nothing in since: a read of them finds nothing. */
  readonly #emptied = new Set<string>();

  /** Whether this saver stored any checkpoint (nothing to delete otherwise). */
  get storedAny(): boolean {
    return this.#storedAny;
  }

  override async deleteThread(threadId: string): Promise<void> {
    await super.deleteThread(threadId);
    this.#emptied.add(threadId);
  }

  /** Read by the graph when a run starts: a thread this saver just emptied needs no store read. */
  override async getTuple(config: RunnableConfig): Promise<CheckpointTuple | undefined> {
    if (this.#emptied.has(String(config.configurable?.thread_id))) return undefined;
    return super.getTuple(config);
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata, newVersions: ChannelVersions): Promise<RunnableConfig> {
    const thread = this.#thread(threadKey(config));
    const unstored = { ...thread.unstored, ...newVersions };
    const conversation = conversationOf(checkpoint);
    thread.unstored = unstored;
    if (conversation !== thread.conversation) {
      thread.conversation = conversation;
      thread.held = { config, checkpoint, metadata, versions: { ...thread.held?.versions, ...unstored }, writes: [] };
      thread.unstored = {};
      if (this.#calls > 0) await this.storeHeld();
    }
    return { configurable: { ...config.configurable, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string, taskPath?: string): Promise<void> {
    const id: unknown = config.configurable?.checkpoint_id;
    const thread = this.#threads.get(threadKey(config));
    if (id === undefined || thread === undefined) return;
    if (thread.held?.checkpoint.id === id) {
      thread.held.writes.push({ writes, taskId, taskPath });
      return;
    }
    if (thread.lastStored !== id) return;
    await this.#storing;
    await super.putWrites(config, writes, taskId, taskPath);
  }

  /** Stores the held checkpoints (with their writes) that hold a model response or a tool result. */
  storeHeld(): Promise<void> {
    for (const thread of this.#threads.values()) {
      const held = thread.held;
      if (held === null || !worthStoring(held.checkpoint)) continue;
      thread.held = null;
      thread.lastStored = held.checkpoint.id;
      this.#storedAny = true;
      this.#emptied.delete(String(held.config.configurable?.thread_id));
      this.#storing = this.#storing.then(async () => {
        const stored = await super.put(held.config, held.checkpoint, held.metadata, held.versions);
        for (const { writes, taskId, taskPath } of held.writes) await super.putWrites(stored, writes, taskId, taskPath);
      });
    }
    return this.#storing;
  }

  /** Middleware that stores the held checkpoints before every model and tool call (wrap hooks: no graph step). */
  storeBeforeCalls(): AgentMiddleware {
    const around = async <T>(call: () => T | Promise<T>): Promise<T> => {
      await this.storeHeld();
      this.#calls += 1;
      try {
        return await call();
      } finally {
        this.#calls -= 1;
      }
    };
    return createMiddleware({
      name: CHECKPOINT_MIDDLEWARE_NAME,
      wrapModelCall: (request, handler) => around(() => handler(request)),
      wrapToolCall: (request, handler) => around(() => handler(request)),
    });
  }

  #thread(key: string): ThreadState {
    let thread = this.#threads.get(key);
    if (thread === undefined) {
      thread = { conversation: '', held: null, unstored: {}, lastStored: null };
      this.#threads.set(key, thread);
    }
    return thread;
  }
}

function threadKey(config: RunnableConfig): string {
  return JSON.stringify([config.configurable?.thread_id, config.configurable?.checkpoint_ns ?? '']);
}

function messagesOf(checkpoint: Checkpoint): readonly unknown[] {
  const messages = checkpoint.channel_values['messages'];
  return Array.isArray(messages) ? messages : [];
}

/**
 * What identifies the conversation of a checkpoint: its length and its first and last message ids.
 * A hook step writes the message channel again without changing it; a new message or a compaction
 * changes one of the three.
 */
function conversationOf(checkpoint: Checkpoint): string {
  const messages = messagesOf(checkpoint);
  if (messages.length === 0) return '';
  const idOf = (m: unknown) => (typeof m === 'object' && m !== null && 'id' in m ? String(m.id) : '');
  return JSON.stringify([messages.length, idOf(messages[0]), idOf(messages.at(-1))]);
}

/** Only work a resume would otherwise repeat is worth a write: a model response or a tool result. */
function worthStoring(checkpoint: Checkpoint): boolean {
  return messagesOf(checkpoint).some((m) => AIMessage.isInstance(m) || ToolMessage.isInstance(m));
}
