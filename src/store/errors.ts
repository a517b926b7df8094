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
