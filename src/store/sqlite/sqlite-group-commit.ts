import type { SqliteDatabase } from './open-sqlite-database';

interface QueuedWrite {
  readonly write: () => unknown;
  readonly resolve: (value: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * Group commit: writes asked for in the same turn of the event loop share one transaction, so one
 * WAL sync (`synchronous=FULL`) serves all of them instead of one each. Many subagents end, flush
 * their steps and store their results at about the same time, and each commit blocks the thread
 * that runs them all for the length of a sync.
 *
 * Each write runs in a savepoint of its own: one that throws rolls back alone and rejects only its
 * caller. A caller's promise settles after the commit, so "resolved" still means "on disk". Writes
 * run in the order they were asked for.
 */
export class SqliteGroupCommit {
  private queue: QueuedWrite[] = [];

  constructor(private readonly db: SqliteDatabase) {}

  /** Runs `write` (synchronous statements only) in the next group's transaction; resolves with its result once committed. */
  run<T>(write: () => T): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ write, resolve: resolve as (value: unknown) => void, reject });
      if (this.queue.length === 1) setImmediate(() => this.commit());
    });
  }

  /** Commits the writes queued so far now (before the database closes). */
  commit(): void {
    const group = this.queue;
    if (group.length === 0) return;
    this.queue = [];
    const outcomes: { readonly ok: boolean; readonly value: unknown }[] = [];
    try {
      this.db
        .transaction(() => {
          for (const { write } of group) {
            try {
              // A transaction function called inside a transaction runs as a savepoint.
              outcomes.push({ ok: true, value: this.db.transaction(write)() });
            } catch (err) {
              outcomes.push({ ok: false, value: err });
            }
          }
        })
        .immediate();
    } catch (err) {
      for (const { reject } of group) reject(err);
      return;
    }
    group.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) resolve(outcome.value);
      else reject(outcome?.value);
    });
  }
}
