/**
 * Errors of the `store` layer. One shape (STYLE §b.4): a stable `name`, a closed `code`, readonly
 * fields, an optional `cause`, and an `isXxx()` predicate to use instead of `instanceof`.
 */

/** Why an agent-definition write was refused. */
export const AgentDefinitionErrorCode = {
  NotFound: 'not_found',
  AlreadyExists: 'already_exists',
  Invalid: 'invalid',
} as const;
/** Union of {@link AgentDefinitionErrorCode} values. */
export type AgentDefinitionErrorCode = (typeof AgentDefinitionErrorCode)[keyof typeof AgentDefinitionErrorCode];

/** Which kind of managed definition an {@link AgentDefinitionError} is about. */
export type AgentDefinitionKind = 'subagent' | 'lead agent';

// A registry-wide symbol so the brand survives duplicate copies of this module (jest, bundles).
const BRAND = Symbol.for('deerflow.store.agent-definition-error');

/**
 * A managed agent definition could not be read or written as asked. Nothing was written.
 * - `not_found` / `already_exists`: the message names the agent (`subagent "researcher" not found`);
 * - `invalid`: the input failed its contract schema; `issues` holds one `field: problem` line per
 *   problem (`max_turns: must be >= 1`) and the message joins them.
 */
export class AgentDefinitionError extends Error {
  override readonly name = 'AgentDefinitionError';
  /** Brand checked by {@link isAgentDefinitionError}. */
  readonly [BRAND] = true;

  /**
   * @param code - why the operation was refused
   * @param kind - subagent or lead agent
   * @param agentName - the name as given, or null when the input had no usable name
   * @param issues - `field: problem` lines (empty unless `code` is `invalid`)
   */
  constructor(
    readonly code: AgentDefinitionErrorCode,
    readonly kind: AgentDefinitionKind,
    readonly agentName: string | null,
    readonly issues: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** `<kind> "<name>" not found`. */
  static notFound(kind: AgentDefinitionKind, name: string): AgentDefinitionError {
    return new AgentDefinitionError(AgentDefinitionErrorCode.NotFound, kind, name, [], `${kind} "${name}" not found`);
  }

  /** `<kind> "<name>" already exists`. */
  static alreadyExists(kind: AgentDefinitionKind, name: string): AgentDefinitionError {
    return new AgentDefinitionError(AgentDefinitionErrorCode.AlreadyExists, kind, name, [], `${kind} "${name}" already exists`);
  }

  /** `invalid <kind> "<name>": <issue>; <issue>`. */
  static invalid(kind: AgentDefinitionKind, name: string | null, issues: readonly string[], cause?: unknown): AgentDefinitionError {
    const subject = name === null ? `invalid ${kind}` : `invalid ${kind} "${name}"`;
    return new AgentDefinitionError(AgentDefinitionErrorCode.Invalid, kind, name, issues, `${subject}: ${issues.join('; ')}`, { cause });
  }
}

/** True for an {@link AgentDefinitionError} (optionally with the given code). */
export function isAgentDefinitionError(err: unknown, code?: AgentDefinitionErrorCode): err is AgentDefinitionError {
  if (typeof err !== 'object' || err === null) return false;
  const rec = err as { [BRAND]?: unknown; code?: unknown };
  return rec[BRAND] === true && (code === undefined || rec.code === code);
}

/** Why a batch store operation was refused. */
export const BatchStoreErrorCode = {
  NotFound: 'not_found',
  AlreadyExists: 'already_exists',
  Invalid: 'invalid',
} as const;
/** Union of {@link BatchStoreErrorCode} values. */
export type BatchStoreErrorCode = (typeof BatchStoreErrorCode)[keyof typeof BatchStoreErrorCode];

const BATCH_BRAND = Symbol.for('deerflow.store.batch-store-error');

/**
 * A batch or batch item could not be read or written as asked. Nothing was written.
 * - `not_found`: no such batch (or item), or the batch belongs to another owner (the two are
 *   indistinguishable on purpose);
 * - `already_exists`: `createBatch` of a taken id with different content;
 * - `invalid`: the input failed its contract schema (or the operation does not fit the batch's
 *   state); `issues` holds one `field: problem` line per problem and the message joins them.
 */
export class BatchStoreError extends Error {
  override readonly name = 'BatchStoreError';
  /** Brand checked by {@link isBatchStoreError}. */
  readonly [BATCH_BRAND] = true;

  /**
   * @param code - why the operation was refused
   * @param batchId - the batch id as given, or null when the input had no usable id
   * @param itemKey - the item key for item operations, else null
   * @param issues - `field: problem` lines (empty unless `code` is `invalid`)
   */
  constructor(
    readonly code: BatchStoreErrorCode,
    readonly batchId: string | null,
    readonly itemKey: string | null,
    readonly issues: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** `batch "<id>" not found` or `item "<key>" of batch "<id>" not found`. */
  static notFound(batchId: string, itemKey: string | null = null): BatchStoreError {
    const what = itemKey === null ? `batch "${batchId}"` : `item "${itemKey}" of batch "${batchId}"`;
    return new BatchStoreError(BatchStoreErrorCode.NotFound, batchId, itemKey, [], `${what} not found`);
  }

  /** `batch "<id>" already exists with different content`. */
  static alreadyExists(batchId: string): BatchStoreError {
    return new BatchStoreError(BatchStoreErrorCode.AlreadyExists, batchId, null, [], `batch "${batchId}" already exists with different content`);
  }

  /** `invalid batch "<id>": <issue>; <issue>`. */
  static invalid(batchId: string | null, itemKey: string | null, issues: readonly string[], cause?: unknown): BatchStoreError {
    const subject = batchId === null ? 'invalid batch' : `invalid batch "${batchId}"`;
    const item = itemKey === null ? '' : ` item "${itemKey}"`;
    return new BatchStoreError(BatchStoreErrorCode.Invalid, batchId, itemKey, issues, `${subject}${item}: ${issues.join('; ')}`, { cause });
  }
}

/** True for a {@link BatchStoreError} (optionally with the given code). */
export function isBatchStoreError(err: unknown, code?: BatchStoreErrorCode): err is BatchStoreError {
  if (typeof err !== 'object' || err === null) return false;
  const rec = err as { [BATCH_BRAND]?: unknown; code?: unknown };
  return rec[BATCH_BRAND] === true && (code === undefined || rec.code === code);
}

/** Why a thread claim was refused. */
export const ThreadOwnerErrorCode = {
  /** The thread already belongs to another user. */
  OwnedByAnother: 'owned_by_another',
  Invalid: 'invalid',
} as const;
/** Union of {@link ThreadOwnerErrorCode} values. */
export type ThreadOwnerErrorCode = (typeof ThreadOwnerErrorCode)[keyof typeof ThreadOwnerErrorCode];

const THREAD_OWNER_BRAND = Symbol.for('deerflow.store.thread-owner-error');

/**
 * A thread could not be claimed for a user. Nothing was written.
 * - `owned_by_another`: the thread's first run or batch was another user's; `ownerId` names them
 *   (callers that must not reveal it, such as the gateway for a scoped user, answer "not found");
 * - `invalid`: the input failed its contract schema; `issues` holds one `field: problem` line per
 *   problem (`threadId: must be 1-128 characters ...`) and the message joins them.
 */
export class ThreadOwnerError extends Error {
  override readonly name = 'ThreadOwnerError';
  /** Brand checked by {@link isThreadOwnerError}. */
  readonly [THREAD_OWNER_BRAND] = true;

  /**
   * @param code - why the claim was refused
   * @param threadId - the thread id as given, or null when the input had no usable id
   * @param ownerId - the thread's owner (`owned_by_another`), else null
   * @param issues - `field: problem` lines (empty unless `code` is `invalid`)
   */
  constructor(
    readonly code: ThreadOwnerErrorCode,
    readonly threadId: string | null,
    readonly ownerId: string | null,
    readonly issues: readonly string[],
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
  }

  /** `thread "<id>" belongs to user "<owner>", not "<user>"`. */
  static ownedByAnother(threadId: string, ownerId: string, userId: string): ThreadOwnerError {
    return new ThreadOwnerError(ThreadOwnerErrorCode.OwnedByAnother, threadId, ownerId, [], `thread "${threadId}" belongs to user "${ownerId}", not "${userId}"`);
  }

  /** `invalid thread claim: <issue>; <issue>`. */
  static invalid(threadId: string | null, issues: readonly string[], cause?: unknown): ThreadOwnerError {
    return new ThreadOwnerError(ThreadOwnerErrorCode.Invalid, threadId, null, issues, `invalid thread claim: ${issues.join('; ')}`, { cause });
  }
}

/** True for a {@link ThreadOwnerError} (optionally with the given code). */
export function isThreadOwnerError(err: unknown, code?: ThreadOwnerErrorCode): err is ThreadOwnerError {
  if (typeof err !== 'object' || err === null) return false;
  const rec = err as { [THREAD_OWNER_BRAND]?: unknown; code?: unknown };
  return rec[THREAD_OWNER_BRAND] === true && (code === undefined || rec.code === code);
}
