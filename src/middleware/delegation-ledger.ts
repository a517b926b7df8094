import { z } from 'zod';
import { boundText, StopReasonSchema, TASK_TOOL_NAME, WIRE_STATUSES, type WireStatus } from '../contracts';
import { cutText } from './context-text';
import { readSubagentResultMetadata, SHA256_HEX_PATTERN } from './subagent-result-metadata';

/** Most entries the ledger keeps; older ones fall off the front (SPEC §6.6). */
export const DELEGATION_LEDGER_MAX_ENTRIES = 50;
/** Longest task description an entry keeps. */
export const DESCRIPTION_CAP = 200;
/** Longest result brief an entry keeps (head/tail bounded). */
export const RESULT_BRIEF_CAP = 2000;

/** Brief recorded when a non-completed task carried no error text (SPEC §6.6). */
export const STATUS_ONLY_BRIEFS: Readonly<Record<Exclude<WireStatus, 'completed'>, string>> = {
  failed: 'Task failed.',
  cancelled: 'Task cancelled by user.',
  timed_out: 'Task timed out.',
  polling_timed_out: 'Task polling timed out.',
};

/** `in_progress` while the task runs, then the wire status it ended with. */
export const DELEGATION_STATUSES = ['in_progress', ...WIRE_STATUSES] as const;
/** Zod enum of `DELEGATION_STATUSES`. */
export const DelegationStatusSchema = z.enum(DELEGATION_STATUSES);
/** One of `DELEGATION_STATUSES`. */
export type DelegationStatus = z.infer<typeof DelegationStatusSchema>;

/** One delegated `task` call as the durable ledger remembers it (SPEC Appendix B). */
export const DelegationEntrySchema = z.object({
  /** The `task` tool call id. */
  id: z.string().min(1),
  /** The lead run that dispatched it; absent for entries captured without a run id. */
  run_id: z.string().min(1).optional(),
  description: z.string().max(DESCRIPTION_CAP),
  subagent_type: z.string(),
  status: DelegationStatusSchema,
  result_brief: z.string().max(RESULT_BRIEF_CAP).optional(),
  result_sha256: z.string().regex(SHA256_HEX_PATTERN).optional(),
  /** Id of the ToolMessage holding the full result (or the tool call id). */
  result_ref: z.string().optional(),
  stop_reason: StopReasonSchema.optional(),
  /** UTC ISO-8601 with a `Z` suffix. */
  created_at: z.iso.datetime(),
});
/** One ledger entry; field names are the persisted (wire) ones. */
export type DelegationEntry = z.infer<typeof DelegationEntrySchema>;

/** A hex sha256 of UTF-8 text. Injected so workflow code can pass a pure implementation. */
export type Sha256 = (text: string) => string;

/** A tool call on an AI message: LangChain's shape, or a raw provider one naming `function.name`. */
export interface LedgerToolCall {
  readonly id?: string | null;
  readonly name?: string;
  readonly function?: { readonly name?: unknown } | null;
  readonly args?: unknown;
}

/**
 * A transcript message as the ledger reads it: a plain object (LangChain message instances fit
 * too). `type` is `ai`, `tool`, `human` or `system`; other types are ignored. `content` is never read.
 */
export interface LedgerMessage {
  readonly type: string;
  readonly id?: string | null;
  readonly tool_calls?: readonly LedgerToolCall[] | null;
  readonly additional_kwargs?: Readonly<Record<string, unknown>> | null;
  readonly tool_call_id?: string | null;
  readonly content?: unknown;
}

/** True for the five wire statuses; `in_progress` is the only non-terminal one. */
export function isTerminalDelegationStatus(status: string): boolean {
  return (WIRE_STATUSES as readonly string[]).includes(status);
}

/**
 * The `task` delegations in `messages` (SPEC §6.6), in dispatch order. Every `task` call with an
 * id becomes an `in_progress` entry created at `now` (a re-seen id is overwritten in place). A
 * ToolMessage answering one of them updates it only through its structured metadata
 * (`readSubagentResultMetadata`): status, stop reason, and a brief (result, else error, else the
 * status-only text) with its sha256 (the given one, else `sha256(brief)`) and a `result_ref`.
 * Message content is never parsed, so a result without metadata leaves the entry `in_progress`.
 * Entries carry no `run_id`; see `tagRunId`.
 * @throws RangeError when `now` is an invalid date.
 */
export function extractDelegations(messages: readonly LedgerMessage[], now: Date, sha256: Sha256): DelegationEntry[] {
  const createdAt = now.toISOString();
  const byId = new Map<string, DelegationEntry>();
  for (const message of messages) {
    if (message.type !== 'ai') continue;
    for (const call of message.tool_calls ?? []) {
      if (toolCallName(call) !== TASK_TOOL_NAME || !call.id) continue;
      const args = isRecord(call.args) ? call.args : {};
      // Map.set on a re-seen id keeps its first position: the entry is overwritten in place.
      byId.set(call.id, {
        id: call.id,
        description: cutText(argText(args['description']) || argText(args['prompt']), DESCRIPTION_CAP),
        subagent_type: argText(args['subagent_type']),
        status: 'in_progress',
        created_at: createdAt,
      });
    }
  }
  for (const message of messages) {
    if (message.type !== 'tool' || !message.tool_call_id) continue;
    const entry = byId.get(message.tool_call_id);
    if (entry === undefined) continue;
    const metadata = readSubagentResultMetadata(message.additional_kwargs);
    if (metadata === null) continue;
    const text = metadata.result_brief ?? metadata.error ?? (metadata.status === 'completed' ? undefined : STATUS_ONLY_BRIEFS[metadata.status]);
    byId.set(entry.id, {
      ...entry,
      status: metadata.status,
      ...(metadata.stop_reason !== undefined && { stop_reason: metadata.stop_reason }),
      ...(text !== undefined && {
        result_brief: boundText(text, RESULT_BRIEF_CAP),
        result_sha256: metadata.result_sha256 ?? sha256(text),
        result_ref: message.id || message.tool_call_id,
      }),
    });
  }
  return [...byId.values()];
}

/**
 * The ledger reducer (SPEC §6.6): upserts `updates` into `existing` by id, keeping first-seen
 * order. A terminal entry is never replaced by a non-terminal one; a replaced entry keeps its
 * original `created_at`, and its `run_id` when the update has none. Keeps the newest
 * `DELEGATION_LEDGER_MAX_ENTRIES`. Inputs are not mutated.
 */
export function mergeDelegations(existing: readonly DelegationEntry[], updates: readonly DelegationEntry[]): DelegationEntry[] {
  if (updates.length === 0) return [...existing];
  const byId = new Map<string, DelegationEntry>();
  for (const entry of [...existing, ...updates]) {
    const previous = byId.get(entry.id);
    if (previous === undefined) {
      byId.set(entry.id, entry);
      continue;
    }
    if (isTerminalDelegationStatus(previous.status) && !isTerminalDelegationStatus(entry.status)) continue;
    byId.set(entry.id, {
      ...entry,
      created_at: previous.created_at,
      ...(!entry.run_id && previous.run_id ? { run_id: previous.run_id } : {}),
    });
  }
  return [...byId.values()].slice(-DELEGATION_LEDGER_MAX_ENTRIES);
}

/**
 * Stamps the current run on delegations it dispatched (SPEC §6.5): ids not in `existingIds` get
 * `run_id = runId`; ids already in the ledger lose any `run_id` here so `mergeDelegations` keeps
 * the one they were first recorded with (an older run's task is never re-tagged). With no run id
 * the entries are returned unchanged.
 */
export function tagRunId(entries: readonly DelegationEntry[], runId: string | null, existingIds: ReadonlySet<string>): DelegationEntry[] {
  if (!runId) return [...entries];
  return entries.map((entry) => {
    if (!existingIds.has(entry.id)) return { ...entry, run_id: runId };
    const { run_id: _dropped, ...rest } = entry;
    return rest;
  });
}

/**
 * How many distinct delegations count against `runId`'s `max_total_per_run` (SPEC §6.1, §6.11):
 * entries whose `run_id` equals it (entries without one never match a known run). With no run
 * id, every entry counts, so an unidentified run can only be limited more, never less.
 */
export function countRunDelegations(entries: readonly DelegationEntry[], runId: string | null): number {
  const ids = new Set<string>();
  for (const entry of entries) {
    if (!runId || entry.run_id === runId) ids.add(entry.id);
  }
  return ids.size;
}

function toolCallName(call: LedgerToolCall): string {
  if (typeof call.name === 'string') return call.name;
  const name = call.function?.name;
  return typeof name === 'string' ? name : '';
}

function isRecord(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A scalar tool argument as text; anything else (objects, null) counts as missing. */
function argText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return value ? String(value) : '';
  return '';
}
