import type { RunnableConfig } from '@langchain/core/runnables';
import { copyCheckpoint, WRITES_IDX_MAP, type Checkpoint, type CheckpointMetadata, type PendingWrite } from '@langchain/langgraph-checkpoint';
import { SqliteSaver } from '@langchain/langgraph-checkpoint-sqlite';
import type { SqliteDatabase } from './open-sqlite-database';
import type { SqliteGroupCommit } from './sqlite-group-commit';

const INSERT_WRITE = '(thread_id, checkpoint_ns, checkpoint_id, task_id, idx, channel, type, value) VALUES (?, ?, ?, ?, ?, ?, ?, ?)';

/**
 * LangGraph's SQLite checkpointer on the stores' database, with its tables created at once: the
 * saver creates them lazily on reads and writes but not before `deleteThread`, which a first
 * attempt calls before anything else.
 *
 * Its writes (rows as LangGraph's saver writes them, read back by its `getTuple` and `list`) go
 * through the stores' group commit: each `put` and `putWrites` of the saver was a transaction of its
 * own, and a subagent stores a checkpoint and its writes before every model or tool call, so many
 * running subagents made many small commits (measured: most of a five-tool-call task's checkpoint
 * CPU was the statements' execution, not the serialization). `deleteThread` of a thread with no rows
 * (every first attempt's) writes nothing.
 */
export class SqliteCheckpointSaver extends SqliteSaver {
  readonly #group: SqliteGroupCommit;
  readonly #putCheckpoint;
  readonly #replaceWrite;
  readonly #keepWrite;
  readonly #threadHasRows;
  readonly #deleteCheckpoints;
  readonly #deleteWrites;

  constructor(db: SqliteDatabase, group: SqliteGroupCommit) {
    super(db);
    this.setup();
    this.#group = group;
    this.#putCheckpoint = db.prepare<[string, string, string, string | undefined, string, Uint8Array, Uint8Array]>(
      'INSERT OR REPLACE INTO checkpoints (thread_id, checkpoint_ns, checkpoint_id, parent_checkpoint_id, type, checkpoint, metadata) VALUES (?, ?, ?, ?, ?, ?, ?)',
    );
    this.#replaceWrite = db.prepare(`INSERT OR REPLACE INTO writes ${INSERT_WRITE}`);
    this.#keepWrite = db.prepare(`INSERT OR IGNORE INTO writes ${INSERT_WRITE}`);
    this.#threadHasRows = db.prepare<[string, string]>('SELECT 1 FROM checkpoints WHERE thread_id = ? UNION ALL SELECT 1 FROM writes WHERE thread_id = ? LIMIT 1');
    this.#deleteCheckpoints = db.prepare<[string]>('DELETE FROM checkpoints WHERE thread_id = ?');
    this.#deleteWrites = db.prepare<[string]>('DELETE FROM writes WHERE thread_id = ?');
  }

  override async put(config: RunnableConfig, checkpoint: Checkpoint, metadata: CheckpointMetadata): Promise<RunnableConfig> {
    const threadId: unknown = config.configurable?.thread_id;
    if (typeof threadId !== 'string' || threadId === '') throw new Error('Missing "thread_id" field in passed "config.configurable".');
    const namespace: string = config.configurable?.checkpoint_ns ?? '';
    const parentId: string | undefined = config.configurable?.checkpoint_id;
    const [[type, serialized], [metadataType, serializedMetadata]] = await Promise.all([this.serde.dumpsTyped(copyCheckpoint(checkpoint)), this.serde.dumpsTyped(metadata)]);
    if (type !== metadataType) throw new Error('Failed to serialize the checkpoint and its metadata to the same type.');
    await this.#group.run(() => this.#putCheckpoint.run(threadId, namespace, checkpoint.id, parentId, type, serialized, serializedMetadata));
    return { configurable: { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: checkpoint.id } };
  }

  override async putWrites(config: RunnableConfig, writes: PendingWrite[], taskId: string): Promise<void> {
    const { thread_id: threadId, checkpoint_ns: namespace, checkpoint_id: checkpointId } = config.configurable ?? {};
    if (!threadId) throw new Error('Missing thread_id field in config.configurable.');
    if (!checkpointId) throw new Error('Missing checkpoint_id field in config.configurable.');
    // As LangGraph's saver: writes of special channels replace the stored ones, others never do.
    const statement = writes.every(([channel]) => channel in WRITES_IDX_MAP) ? this.#replaceWrite : this.#keepWrite;
    const rows = await Promise.all(
      writes.map(async ([channel, value], idx) => {
        const [type, serialized] = await this.serde.dumpsTyped(value);
        return [threadId, namespace, checkpointId, taskId, WRITES_IDX_MAP[channel] ?? idx, channel, type, serialized] as const;
      }),
    );
    await this.#group.run(() => {
      for (const row of rows) statement.run(...row);
    });
  }

  override async deleteThread(threadId: string): Promise<void> {
    if (this.#threadHasRows.get(threadId, threadId) === undefined) return;
    await this.#group.run(() => {
      this.#deleteCheckpoints.run(threadId);
      this.#deleteWrites.run(threadId);
    });
  }
}
