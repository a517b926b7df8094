import type { Pool } from 'pg';
import type { ThreadKind, ThreadOwnerRecord } from '../../contracts/thread-owners';
import { parseThreadClaim, type ThreadOwnerStore } from '../thread-owner-store';

interface Row {
  thread_id: string;
  owner_id: string;
  kind: ThreadKind;
  claimed_at: Date;
}

const toRecord = (r: Row): ThreadOwnerRecord => ({ threadId: r.thread_id, ownerId: r.owner_id, kind: r.kind, claimedAt: r.claimed_at.toISOString() });
const SELECT = 'SELECT thread_id, owner_id, kind, claimed_at FROM threads WHERE thread_id = $1';

/** PostgreSQL implementation of {@link ThreadOwnerStore}. */
export class PostgresThreadOwnerStore implements ThreadOwnerStore {
  constructor(private readonly pool: Pool) {}

  async claim(threadId: string, ownerId: string, kind: ThreadKind): Promise<ThreadOwnerRecord> {
    const claim = parseThreadClaim(threadId, ownerId, kind);
    // The INSERT is the claim: one statement, its own transaction, atomic against every other
    // connection. No explicit transaction around the read: its snapshot must be taken after the
    // insert (whatever the server's default isolation), so a concurrent winner is visible.
    const inserted = await this.pool.query<Row>(
      `INSERT INTO threads (thread_id, owner_id, kind, claimed_at) VALUES ($1, $2, $3, $4)
       ON CONFLICT (thread_id) DO NOTHING
       RETURNING thread_id, owner_id, kind, claimed_at`,
      [claim.threadId, claim.ownerId, claim.kind, new Date()],
    );
    // ON CONFLICT waited for a concurrent claim to commit, so the winner's row is readable now.
    const row = inserted.rows[0] ?? (await this.pool.query<Row>(SELECT, [claim.threadId])).rows[0];
    if (row === undefined) throw new Error(`Owner of thread ${claim.threadId} vanished after its claim`);
    return toRecord(row);
  }

  async get(threadId: string): Promise<ThreadOwnerRecord | null> {
    const row = (await this.pool.query<Row>(SELECT, [threadId])).rows[0];
    return row === undefined ? null : toRecord(row);
  }
}
