import type { SubagentEvidence } from '../contracts';
import type { Sha256 } from '../middleware';
import { checkReport, summarizeEvidence } from './evidence';
import { harvestReceipts, mergeReceipts, readReceiptMessages, reportSnapshot, type Receipt, type ReceiptMessage } from './ledger';

/**
 * The receipt ledger of one subagent execution, fed every streamed values chunk (SPEC Appendix
 * C.4: "harvested from each values chunk"). Merging chunk by chunk keeps receipts whose results
 * compaction later removed from the transcript. No I/O, no clock: hashing is injected.
 *
 * Fail closed: a chunk that is not a message list, or a ledger whose ids stop being unambiguous,
 * leaves no usable snapshot, and a completed report then gets no evidence at all (null) rather
 * than verdicts against a ledger that may be missing the receipts it cites.
 */
export class ReceiptHarvest {
  readonly #sha256: Sha256;
  #ledger: Receipt[] = [];
  /** Messages of the latest chunk, or null before the first one or after a malformed one. */
  #latest: ReceiptMessage[] | null = null;
  #observed = false;
  #broken = false;

  constructor(sha256: Sha256) {
    this.#sha256 = sha256;
  }

  /** Receipts harvested so far (bounded). */
  get receipts(): readonly Receipt[] {
    return this.#ledger;
  }

  /** Harvests one chunk's messages into the ledger; this chunk becomes the latest snapshot. */
  observe(messages: unknown): void {
    this.#observed = true;
    const list = readReceiptMessages(messages);
    const harvested = list === null ? null : harvestReceipts(list, this.#sha256);
    if (list === null || harvested === null) {
      this.#latest = null;
      return;
    }
    const merged = mergeReceipts(this.#ledger, harvested);
    if (merged === null) {
      this.#broken = true;
      this.#latest = null;
      return;
    }
    this.#ledger = merged;
    this.#latest = list;
  }

  /**
   * Evidence for a completed run whose report is `report`: its citations checked against the
   * receipts the report could have seen. Null when the latest snapshot is missing or malformed.
   */
  completed(report: string): SubagentEvidence | null {
    if (this.#broken || this.#latest === null) return null;
    const snapshot = reportSnapshot(this.#ledger, this.#latest);
    return summarizeEvidence(snapshot.length, checkReport(report, snapshot));
  }

  /**
   * Evidence for a run that ended without a report (failed): the receipts of the latest scan and
   * no verdicts. Null when nothing was streamed or the ledger is unusable.
   */
  withoutReport(): SubagentEvidence | null {
    if (this.#broken || !this.#observed) return null;
    return summarizeEvidence(this.#ledger.length, null);
  }
}
