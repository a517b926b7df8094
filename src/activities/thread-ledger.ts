import { mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { extractDelegations, mergeDelegations, tagRunId, type DelegationEntry } from '../middleware';
import type { ThreadMessageRecord } from '../store';
import { sha256Hex } from './sha256-hex';

/**
 * The thread's delegation ledger (SPEC §6.6), derived from its stored transcript: every `task`
 * call and its structured outcome, each tagged with the run that made it. Deriving it from the
 * transcript keeps it durable with the thread and never out of step with what the lead saw.
 */
export function threadLedger(records: readonly ThreadMessageRecord[], now: Date): DelegationEntry[] {
  let ledger: DelegationEntry[] = [];
  let start = 0;
  for (let i = 1; i <= records.length; i++) {
    if (i < records.length && records[i]?.runId === records[start]?.runId) continue;
    const run = records.slice(start, i);
    const messages = run.map((r) => mapStoredMessageToChatMessage(r.message));
    const extracted = extractDelegations(messages, now, sha256Hex);
    ledger = mergeDelegations(ledger, tagRunId(extracted, run[0]?.runId ?? null, new Set(ledger.map((e) => e.id))));
    start = i;
  }
  return ledger;
}
