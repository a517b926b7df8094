import {
  boundText,
  STOP_REASON_LABELS,
  StopReasonSchema,
  TokenUsageSchema,
  WireStatusSchema,
  type StopReason,
  type TokenUsage,
  type WireStatus,
} from '../contracts';
import { sha256Hex } from './sha256-hex';

/** Keys of the structured outcome on a `task` ToolMessage's `additional_kwargs` (SPEC §3.2). */
export const SUBAGENT_KWARGS = {
  status: 'subagent_status',
  stopReason: 'subagent_stop_reason',
  error: 'subagent_error',
  resultBrief: 'subagent_result_brief',
  resultSha256: 'subagent_result_sha256',
  modelName: 'subagent_model_name',
  tokenUsage: 'subagent_token_usage',
} as const;

export interface SubagentOutcomeText {
  readonly status: WireStatus;
  readonly result?: string | null;
  readonly error?: string | null;
  readonly stopReason?: StopReason | null;
}

/**
 * The display text of a task outcome and the error to put in metadata (SPEC §3.5).
 * The text is for the model and humans; consumers read the structured keys.
 */
export function formatSubagentResultMessage(outcome: SubagentOutcomeText): { content: string; metadataError: string | null } {
  const detail = outcome.error?.trim() ?? '';
  const cap = outcome.stopReason ? STOP_REASON_LABELS[outcome.stopReason] : null;
  switch (outcome.status) {
    case 'completed': {
      const head = cap ? `Task Succeeded (capped: ${cap}).` : 'Task Succeeded.';
      return { content: `${head} Result: ${outcome.result ?? ''}`, metadataError: null };
    }
    case 'cancelled':
      return withDetail('Task cancelled by user.', detail);
    case 'timed_out':
      return withDetail('Task timed out.', detail);
    case 'polling_timed_out': {
      const text = detail || 'Task polling timed out.';
      return { content: text, metadataError: text };
    }
    case 'failed': {
      const head = cap ? `Task failed (capped: ${cap}).` : 'Task failed.';
      return detail ? { content: `${head} Error: ${detail}`, metadataError: detail } : { content: head, metadataError: 'Task failed.' };
    }
    default: {
      const unreachable: never = outcome.status;
      throw new Error(`invalid subagent status ${String(unreachable)}`);
    }
  }
}

function withDetail(base: string, detail: string): { content: string; metadataError: string } {
  if (!detail || detail === base) return { content: base, metadataError: base };
  return { content: `${base} Error: ${detail}`, metadataError: detail };
}

/** Usage with all three counts as non-negative integers, else null (never zero-filled). */
export function normalizeTokenUsage(value: unknown): TokenUsage | null {
  const parsed = TokenUsageSchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/**
 * The structured outcome stamped on a `task` ToolMessage (SPEC §3.3): status always; brief and
 * sha256 of the full result for completed tasks; a bounded error otherwise; stop reason, model and
 * usage when known.
 * @throws Error on an invalid status or stop reason.
 */
export function makeSubagentAdditionalKwargs(
  status: WireStatus,
  fields: {
    result?: string | null;
    error?: string | null;
    stopReason?: StopReason | null;
    modelName?: string | null;
    tokenUsage?: unknown;
  },
): Record<string, unknown> {
  if (!WireStatusSchema.safeParse(status).success) throw new Error(`invalid subagent status ${String(status)}`);
  if (fields.stopReason != null && !StopReasonSchema.safeParse(fields.stopReason).success) {
    throw new Error(`invalid subagent stop_reason ${String(fields.stopReason)}`);
  }
  const kwargs: Record<string, unknown> = { [SUBAGENT_KWARGS.status]: status };
  if (status === 'completed' && typeof fields.result === 'string' && fields.result.trim()) {
    kwargs[SUBAGENT_KWARGS.resultBrief] = boundText(fields.result);
    kwargs[SUBAGENT_KWARGS.resultSha256] = sha256Hex(fields.result);
  }
  if (status !== 'completed' && typeof fields.error === 'string' && fields.error.trim()) {
    kwargs[SUBAGENT_KWARGS.error] = boundText(fields.error);
  }
  if (fields.stopReason) kwargs[SUBAGENT_KWARGS.stopReason] = fields.stopReason;
  if (fields.modelName?.trim()) kwargs[SUBAGENT_KWARGS.modelName] = fields.modelName.trim();
  const usage = normalizeTokenUsage(fields.tokenUsage);
  if (usage) kwargs[SUBAGENT_KWARGS.tokenUsage] = usage;
  return kwargs;
}
