import { boundText, STOP_REASONS, WIRE_STATUSES, type StopReason, type WireStatus } from '../contracts';

/**
 * The `additional_kwargs` keys a terminal `task` ToolMessage carries (SPEC §3.2). Same values as
 * `SUBAGENT_KWARGS` in `src/activities/task-result-message.ts`, which this folder may not import
 * (activities are effects, and it pulls in `node:crypto`).
 */
export const SUBAGENT_METADATA_KEYS = {
  status: 'subagent_status',
  stopReason: 'subagent_stop_reason',
  error: 'subagent_error',
  resultBrief: 'subagent_result_brief',
  resultSha256: 'subagent_result_sha256',
} as const;

/** A sha256 digest as the wire carries it: exactly 64 lowercase hex digits. */
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/;

/** Statuses written by older releases, mapped to the stop reason that replaced them. */
const LEGACY_STATUS_STOP_REASONS: ReadonlyMap<string, StopReason> = new Map([['max_turns_reached', 'turn_capped']]);

/** The structured outcome read back from a `task` ToolMessage (SPEC §3.4). */
export interface SubagentResultMetadata {
  readonly status: WireStatus;
  /** Bounded result text; only for `completed`. */
  readonly result_brief?: string;
  /** sha256 of the full result; only alongside `result_brief` and only when well-formed. */
  readonly result_sha256?: string;
  /** Bounded error text; only for statuses other than `completed`. */
  readonly error?: string;
  readonly stop_reason?: StopReason;
}

/**
 * Reads the structured subagent outcome from a ToolMessage's `additional_kwargs` (SPEC §3.4).
 * Trusts nothing: malformed fields are dropped, never repaired. The legacy status
 * `max_turns_reached` becomes `completed` when a non-blank brief survives, else `failed`, with stop
 * reason `turn_capped` unless a valid explicit one is present.
 * @returns null when there is no object or its status is missing or unknown.
 */
export function readSubagentResultMetadata(additionalKwargs: unknown): SubagentResultMetadata | null {
  if (typeof additionalKwargs !== 'object' || additionalKwargs === null) return null;
  const kwargs = additionalKwargs as Readonly<Record<string, unknown>>;
  const rawStatus = kwargs[SUBAGENT_METADATA_KEYS.status];
  const rawBrief = kwargs[SUBAGENT_METADATA_KEYS.resultBrief];
  const rawSha = kwargs[SUBAGENT_METADATA_KEYS.resultSha256];
  const rawError = kwargs[SUBAGENT_METADATA_KEYS.error];
  const rawStopReason = kwargs[SUBAGENT_METADATA_KEYS.stopReason];

  // Legacy values survive in stored history; normalizing them keeps their ledger entries from
  // staying in_progress forever.
  const legacyStopReason = typeof rawStatus === 'string' ? LEGACY_STATUS_STOP_REASONS.get(rawStatus) : undefined;
  let status: WireStatus;
  if (legacyStopReason !== undefined) status = isNonBlank(rawBrief) ? 'completed' : 'failed';
  else if (isWireStatus(rawStatus)) status = rawStatus;
  else return null;

  const brief = status === 'completed' && isNonBlank(rawBrief) ? boundText(rawBrief) : undefined;
  const sha = brief !== undefined && typeof rawSha === 'string' && SHA256_HEX_PATTERN.test(rawSha) ? rawSha : undefined;
  const error = status !== 'completed' && isNonBlank(rawError) ? boundText(rawError) : undefined;
  const stopReason = isStopReason(rawStopReason) ? rawStopReason : legacyStopReason;
  return {
    status,
    ...(brief !== undefined && { result_brief: brief }),
    ...(sha !== undefined && { result_sha256: sha }),
    ...(error !== undefined && { error }),
    ...(stopReason !== undefined && { stop_reason: stopReason }),
  };
}

function isNonBlank(value: unknown): value is string {
  return typeof value === 'string' && value.trim().length > 0;
}

function isWireStatus(value: unknown): value is WireStatus {
  return typeof value === 'string' && (WIRE_STATUSES as readonly string[]).includes(value);
}

function isStopReason(value: unknown): value is StopReason {
  return typeof value === 'string' && (STOP_REASONS as readonly string[]).includes(value);
}
