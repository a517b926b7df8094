/**
 * Tool receipts and the report contract's checks (SPEC Appendix C.4), as pure functions: no Node
 * APIs, no I/O, no clock; hashing is a parameter. The createMiddleware wrapper lives in `./agent`.
 */
export { canonicalJson } from './canonical-json';
export {
  MAX_LEDGER_RECEIPTS,
  RECEIPT_ID_KWARG,
  readReceiptMessages,
  parseReceiptNumber,
  numberToolCalls,
  boundLedger,
  harvestReceipts,
  mergeReceipts,
  reportSnapshot,
  renderReceiptNote,
} from './ledger';
export type { Receipt, ReceiptOutcome, ReceiptToolCall, ReceiptMessage } from './ledger';
export { ACTION_VERBS, parseCitations, splitSentences, isActionClaim } from './citations';
export type { Citation, ReportSentence } from './citations';
export { FLAGGED_CLAIM_QUOTE_MAX_CHARS, checkReport, flaggedLines, summarizeEvidence, renderEvidenceCheck } from './evidence';
export type { CitationVerdict, CitationCheck, ReportCheck } from './evidence';
export { ReceiptHarvest } from './harvest';
export {
  ACCEPTANCE_CRITERIA_MAX_ITEMS,
  ACCEPTANCE_CRITERIA_MAX_CHARS,
  ACCEPTANCE_CRITERIA_HEADER,
  renderAcceptanceCriteriaBlock,
  withAcceptanceCriteria,
} from './acceptance-criteria';
