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
 * A write that throws must not take the others with it: the group is then rolled back and each of
 * its writes runs again in a transaction of its own, so only the failing one rejects. (Savepoints
 * per write would do the same without a second pass, but each costs more than a small batch of
 * rows, and writes that throw are rare.) A caller's promise settles after the commit, so
 * "resolved" still means "on disk". Writes run in the order they were asked for.
 */
export class SqliteGroupCommit {
  private queue: QueuedWrite[] = [];
  /** Built once: better-sqlite3 builds a wrapper per `transaction` call. */
  private readonly commitGroup;
  private readonly commitOne;
  /** Whether the group failed in one of its writes, not in BEGIN or COMMIT. */
  private writeFailed = false;

  constructor(db: SqliteDatabase) {
    this.commitGroup = db.transaction((group: readonly QueuedWrite[]) =>
      group.map(({ write }) => {
        try {
          return write();
        } catch (err) {
          this.writeFailed = true;
          throw err;
        }
      }),
    );
    this.commitOne = db.transaction((write: () => unknown) => write());
  }

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
    if (group.length > 1 && this.settleTogether(group)) return;
    // Alone, or after the group was rolled back for a write that threw.
    for (const { write, resolve, reject } of group) {
      try {
        resolve(this.commitOne.immediate(write));
      } catch (err) {
        reject(err);
      }
    }
  }

  /** Commits `group` in one transaction and settles its callers; false when one of its writes threw (nothing settled). */
  private settleTogether(group: readonly QueuedWrite[]): boolean {
    this.writeFailed = false;
    let results: readonly unknown[];
    try {
      results = this.commitGroup.immediate(group);
    } catch (err) {
      if (this.writeFailed) return false;
      // A busy or broken database fails every write alike: no second pass (and no second wait).
      for (const { reject } of group) reject(err);
      return true;
    }
    group.forEach(({ resolve }, i) => resolve(results[i]));
    return true;
  }
}
