import { EVIDENCE_FLAGGED_MAX_CHARS, EVIDENCE_MAX_FLAGGED, type SubagentEvidence } from '../contracts';
import { isActionClaim, splitSentences, type Citation } from './citations';
import type { Receipt } from './ledger';

/** A citation's verdict (SPEC Appendix C.4); `verified` means only that the call happened. */
export type CitationVerdict = 'verified' | 'failed' | 'unknown';

/** One distinct citation of a report, checked against the ledger. */
export interface CitationCheck {
  readonly citation: Citation;
  readonly verdict: CitationVerdict;
  /** The receipt the id resolved to, or null for `unknown`. */
  readonly receipt: Receipt | null;
}

/** A report checked against a ledger snapshot. */
export interface ReportCheck {
  /** Distinct citations (by their normalised text), in order of first appearance. */
  readonly citations: readonly CitationCheck[];
  /** Sentences that claim an action and cite no receipt: UNVERIFIED. */
  readonly unverifiedClaims: readonly string[];
}

/** Longest quote of an uncited claim in a flagged line. */
export const FLAGGED_CLAIM_QUOTE_MAX_CHARS = 120;

/**
 * Checks a report against the receipts it may cite: an id with no receipt is `unknown`, a tool
 * label naming another tool is `failed`, anything else resolves (`verified`). Sentences that
 * claim an action without any citation are UNVERIFIED claims.
 */
export function checkReport(report: string, ledger: readonly Receipt[]): ReportCheck {
  const receipts = new Map(ledger.map((receipt) => [receipt.id, receipt]));
  const citations = new Map<string, CitationCheck>();
  const unverifiedClaims: string[] = [];
  for (const sentence of splitSentences(report)) {
    for (const citation of sentence.citations) {
      if (citations.has(citation.text)) continue;
      const receipt = receipts.get(citation.id) ?? null;
      const verdict: CitationVerdict =
        receipt === null ? 'unknown' : citation.toolName !== null && citation.toolName !== receipt.tool_name ? 'failed' : 'verified';
      citations.set(citation.text, { citation, verdict, receipt });
    }
    if (sentence.citations.length === 0 && isActionClaim(sentence.text)) unverifiedClaims.push(sentence.text);
  }
  return { citations: [...citations.values()], unverifiedClaims };
}

function cut(text: string, max: number): string {
  const chars = Array.from(text);
  return chars.length > max ? `${chars.slice(0, max - 3).join('')}...` : text;
}

/** The short lines naming what a check flagged: failed, unknown, UNVERIFIED, then error receipts. */
export function flaggedLines(check: ReportCheck): string[] {
  const lines: string[] = [];
  for (const { citation, verdict, receipt } of check.citations) {
    if (verdict === 'failed' && receipt !== null) lines.push(`failed: ${citation.text} names ${citation.toolName ?? ''}, but ${receipt.id} is a ${receipt.tool_name} call`);
  }
  for (const { citation, verdict } of check.citations) {
    if (verdict === 'unknown') lines.push(`unknown: ${citation.text} is not in the ledger`);
  }
  for (const claim of check.unverifiedClaims) lines.push(`UNVERIFIED: "${cut(claim, FLAGGED_CLAIM_QUOTE_MAX_CHARS)}" cites no receipt`);
  // Still a verified citation (the call happened), but the lead should know it failed.
  for (const { citation, verdict, receipt } of check.citations) {
    if (verdict === 'verified' && receipt?.outcome === 'error') lines.push(`note: ${citation.text} is a call that returned an error`);
  }
  return lines;
}

/**
 * The bounded summary carried to the workflow and the lead: the receipt count, verdict counts and
 * at most `EVIDENCE_MAX_FLAGGED` lines (the last one says how many more were left out). A null
 * check (no report: the run failed) has zero verdicts.
 */
export function summarizeEvidence(receipts: number, check: ReportCheck | null): SubagentEvidence {
  const count = (verdict: CitationVerdict) => check?.citations.filter((c) => c.verdict === verdict).length ?? 0;
  const all = check === null ? [] : flaggedLines(check);
  const flagged =
    all.length <= EVIDENCE_MAX_FLAGGED
      ? all
      : [...all.slice(0, EVIDENCE_MAX_FLAGGED - 1), `... ${all.length - EVIDENCE_MAX_FLAGGED + 1} more flagged`];
  return {
    receipts,
    verdicts: { verified: count('verified'), failed: count('failed'), unknown: count('unknown'), unverified: check?.unverifiedClaims.length ?? 0 },
    flagged: flagged.map((line) => cut(line, EVIDENCE_FLAGGED_MAX_CHARS)),
  };
}

/**
 * The advisory text appended to a completed task's result for the lead: counts, the flagged
 * lines, and what a verified citation does and does not prove.
 */
export function renderEvidenceCheck(evidence: SubagentEvidence): string {
  const { verified, failed, unknown, unverified } = evidence.verdicts;
  const receipts = `${evidence.receipts} tool receipt${evidence.receipts === 1 ? '' : 's'}`;
  return [
    `Evidence check (advisory, ${receipts}): ${verified} verified, ${failed} failed, ${unknown} unknown, ${unverified} UNVERIFIED.`,
    ...evidence.flagged.map((line) => `- ${line}`),
    'A verified citation shows only that the call happened, not that the claim is correct.',
  ].join('\n');
}
