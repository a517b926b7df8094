import { zodIssueLines } from '../contracts/format-zod-issues';
import { ThreadClaimInputSchema, type ThreadClaimInput, type ThreadKind, type ThreadOwnerRecord } from '../contracts/thread-owners';
import { ThreadOwnerError } from './errors';

/**
 * Who owns each thread (and each batch id, which is its items' thread). The first run or batch in a
 * thread claims it for its user; the claim never changes afterwards. Ownership lives here rather
 * than in Temporal visibility, which lags a start and forgets a workflow after retention.
 */
export interface ThreadOwnerStore {
  /**
   * Claims `threadId` for `ownerId` unless it has an owner already, atomically: of two concurrent
   * first claims (any connections, any processes) exactly one is stored. Returns the owner record
   * that is stored, the new one or the existing one (which keeps its `kind` and `claimedAt`), so a
   * claim by the owner again is a no-op and a claim by anyone else returns the other owner.
   * @throws ThreadOwnerError `invalid` for an id or kind that breaks the contract (nothing stored).
   */
  claim(threadId: string, ownerId: string, kind: ThreadKind): Promise<ThreadOwnerRecord>;
  /** The owner record of `threadId`, or null when no run or batch has claimed it. */
  get(threadId: string): Promise<ThreadOwnerRecord | null>;
}

/**
 * Claims `threadId` for `userId` and returns the record, or refuses when it is another user's.
 * @throws ThreadOwnerError `owned_by_another` naming the thread and its owner; `invalid` as
 *   {@link ThreadOwnerStore.claim}.
 */
export async function claimThread(store: ThreadOwnerStore, threadId: string, userId: string, kind: ThreadKind): Promise<ThreadOwnerRecord> {
  const owner = await store.claim(threadId, userId, kind);
  if (owner.ownerId !== userId) throw ThreadOwnerError.ownedByAnother(threadId, owner.ownerId, userId);
  return owner;
}

/**
 * Validates a claim before a backend writes it.
 * @throws ThreadOwnerError `invalid`, one `field: problem` issue per problem
 * @internal
 */
export function parseThreadClaim(threadId: unknown, ownerId: unknown, kind: unknown): ThreadClaimInput {
  const parsed = ThreadClaimInputSchema.safeParse({ threadId, ownerId, kind });
  if (parsed.success) return parsed.data;
  const issues = zodIssueLines(parsed.error.issues, 'input');
  throw ThreadOwnerError.invalid(typeof threadId === 'string' ? threadId : null, issues, parsed.error);
}
