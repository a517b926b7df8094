import { boundText } from '../contracts';
import type { DelegationEntry } from './delegation-ledger';
import { escapeContextText } from './context-text';

/** Character budget of the rendered ledger (SPEC §6.6). */
export const LEDGER_RENDER_CHAR_BUDGET = 6000;
/** Longest result preview one rendered entry shows. */
export const LEDGER_ENTRY_RESULT_RENDER_CAP = 120;

/** Heading of the ledger section in the durable context data. */
export const DELEGATION_LEDGER_HEADING = '## Work already delegated';
const EXPLANATION =
  'Newest entries come first. In-progress entries are already delegated; completed entries are reusable results; ' +
  'failed, cancelled and timed-out entries are prior attempts.';
const BUDGET_HINT = 'raise the per-agent budget (max_turns / token_budget)';

/**
 * What the lead should do about one entry (SPEC §6.6). A stop reason outranks the status: the
 * task hit a guardrail cap, with a partial result when it completed and none otherwise.
 */
export function delegationGuidance(status: string, stopReason?: string | null): string {
  if (stopReason) {
    if (status === 'completed') {
      return `hit a guardrail cap with a partial result; reuse the partial result, retry with a narrower scope, or ${BUDGET_HINT}`;
    }
    return `hit a guardrail cap with no usable result; retry with a narrower scope or ${BUDGET_HINT}`;
  }
  switch (status) {
    case 'in_progress':
      return 'already delegated; do NOT delegate again; wait for or build on the result';
    case 'completed':
      return 'completed result; do NOT delegate again; reuse this result';
    case 'failed':
      return 'failed attempt; may retry with a changed plan';
    case 'cancelled':
      return 'cancelled attempt; may retry with a changed plan';
    case 'timed_out':
      return 'timed-out attempt; may retry with a changed plan';
    case 'polling_timed_out':
      return 'polling timed-out attempt; may retry with a changed plan';
    default:
      return 'prior attempt; inspect status before retrying';
  }
}

function renderEntryLine(entry: DelegationEntry): string {
  const guidance = delegationGuidance(entry.status, entry.stop_reason);
  const line = `- [${escapeContextText(entry.status)}] ${escapeContextText(entry.description)} (via ${escapeContextText(entry.subagent_type)}; ${guidance})`;
  if (!entry.result_brief) return line;
  return `${line} -> ${escapeContextText(boundText(entry.result_brief, LEDGER_ENTRY_RESULT_RENDER_CAP))}`;
}

function omittedLine(count: number): string {
  return `- ... ${count} older delegation entries omitted from this model view because of context budget`;
}

function fits(lines: readonly string[], candidate: string, maxChars: number): boolean {
  return [...lines, candidate].join('\n').length <= maxChars;
}

/**
 * The model-visible ledger (SPEC §6.6): heading, explanation, then one line per entry, newest
 * first: `- [<status>] <description> (via <subagent_type>; <guidance>)` plus ` -> <preview>` when
 * a brief exists (bounded to `LEDGER_ENTRY_RESULT_RENDER_CAP`). Every entry value is collapsed to
 * one line and HTML-escaped. Entries are added while the text fits `maxChars`; the rest are
 * counted in an omission line, for which already-added lines are given back as needed. A final
 * hard cut keeps the result within `maxChars - 4` plus `\n...`.
 * @returns "" for an empty ledger.
 */
export function renderDelegationLedger(entries: readonly DelegationEntry[], maxChars: number = LEDGER_RENDER_CHAR_BUDGET): string {
  if (entries.length === 0) return '';
  const lines = [DELEGATION_LEDGER_HEADING, EXPLANATION];
  const newestFirst = [...entries].reverse();
  let shown = 0;
  for (const entry of newestFirst) {
    const line = renderEntryLine(entry);
    if (!fits(lines, line, maxChars)) break;
    lines.push(line);
    shown += 1;
  }
  let omitted = newestFirst.length - shown;
  if (omitted > 0) {
    while (lines.length > 1 && !fits(lines, omittedLine(omitted), maxChars)) {
      lines.pop();
      // Only a given-back entry line adds to the count; the explanation line is not an entry.
      if (lines.length >= 2) omitted += 1;
    }
    if (fits(lines, omittedLine(omitted), maxChars)) lines.push(omittedLine(omitted));
  }
  const rendered = lines.join('\n');
  if (rendered.length <= maxChars) return rendered;
  return `${rendered.slice(0, Math.max(0, maxChars - 4))}\n...`;
}
