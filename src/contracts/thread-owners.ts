import { z } from 'zod';

/**
 * Thread ownership: the user whose first run (or batch, whose id is its items' thread) claimed a
 * thread. Every later run in the thread, and every read of it, belongs to that user alone.
 */

/**
 * What a thread id may be: it names the thread's workspace folder, so it starts with a letter or
 * digit (`.` and `..` are impossible) and has no separators (one path segment).
 */
export const THREAD_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** True when `threadId` is safe to use as a folder name under the data directory. */
export function isValidThreadId(threadId: string): boolean {
  return THREAD_ID_PATTERN.test(threadId);
}

const THREAD_ID_RULE = 'must be 1-128 characters: letters, digits, _ . - (starting with a letter or digit)';

/** Longest user id an owner record holds (the gateway's `user_id` limit). */
export const THREAD_OWNER_ID_MAX_CHARS = 200;

/** How a thread was first claimed: by a lead run, or by a batch named by the thread id. */
export const ThreadKind = {
  run: 'run',
  batch: 'batch',
} as const;
/** Union of {@link ThreadKind} values. */
export type ThreadKind = (typeof ThreadKind)[keyof typeof ThreadKind];
export const ThreadKindSchema = z.enum(ThreadKind);

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;

/** What `ThreadOwnerStore.claim` takes. */
export const ThreadClaimInputSchema = z.strictObject({
  threadId: z.string().regex(THREAD_ID_PATTERN, THREAD_ID_RULE),
  ownerId: z
    .string()
    .min(1, 'must not be empty')
    .max(THREAD_OWNER_ID_MAX_CHARS, `must be at most ${THREAD_OWNER_ID_MAX_CHARS} characters`)
    .refine((s) => !CONTROL.test(s) && s.trim() === s, 'must have no control characters and no surrounding spaces'),
  kind: ThreadKindSchema,
});
export type ThreadClaimInput = z.infer<typeof ThreadClaimInputSchema>;

/** Who owns a thread. */
export const ThreadOwnerRecordSchema = z.strictObject({
  threadId: z.string(),
  ownerId: z.string(),
  /** How the thread was first claimed; a later claim by the same owner does not change it. */
  kind: ThreadKindSchema,
  /** When the first claim was recorded: UTC ISO 8601 with milliseconds and `Z`. */
  claimedAt: z.string(),
});
export type ThreadOwnerRecord = z.infer<typeof ThreadOwnerRecordSchema>;
