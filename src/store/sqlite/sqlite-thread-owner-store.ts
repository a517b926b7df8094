import type { ThreadKind, ThreadOwnerRecord } from '../../contracts/thread-owners';
import { parseThreadClaim, type ThreadOwnerStore } from '../thread-owner-store';
import type { SqliteDatabase } from './open-sqlite-database';

interface Row {
  thread_id: string;
  owner_id: string;
  kind: ThreadKind;
  claimed_at: string;
}

const toRecord = (r: Row): ThreadOwnerRecord => ({ threadId: r.thread_id, ownerId: r.owner_id, kind: r.kind, claimedAt: r.claimed_at });
const SELECT = 'SELECT thread_id, owner_id, kind, claimed_at FROM threads WHERE thread_id = ?';

/** SQLite implementation of {@link ThreadOwnerStore}. */
export class SqliteThreadOwnerStore implements ThreadOwnerStore {
  constructor(private readonly db: SqliteDatabase) {}

  async claim(threadId: string, ownerId: string, kind: ThreadKind): Promise<ThreadOwnerRecord> {
    const claim = parseThreadClaim(threadId, ownerId, kind);
    // IMMEDIATE takes the write lock before reading, so another connection (or process) on the same
    // file cannot slip its claim between this insert and the read of the winner.
    const row = this.db
      .transaction((): Row | undefined => {
        this.db
          .prepare('INSERT INTO threads (thread_id, owner_id, kind, claimed_at) VALUES (?, ?, ?, ?) ON CONFLICT (thread_id) DO NOTHING')
          .run(claim.threadId, claim.ownerId, claim.kind, new Date().toISOString());
        return this.db.prepare(SELECT).get(claim.threadId) as Row | undefined;
      })
      .immediate();
    if (row === undefined) throw new Error(`Owner of thread ${claim.threadId} vanished after its claim`);
    return toRecord(row);
  }

  async get(threadId: string): Promise<ThreadOwnerRecord | null> {
    const row = this.db.prepare(SELECT).get(threadId) as Row | undefined;
    return row === undefined ? null : toRecord(row);
  }
}
