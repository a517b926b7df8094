/**
 * How a subagent cites one of its tool receipts (SPEC Appendix C.4). Prompts build their examples
 * from this function so the text the model is taught cannot drift from what a verifier parses;
 * the receipts ledger and verifier should import it rather than re-spelling the format.
 */

/** The id of the `n`-th receipt of a subagent run (1-based): `r1`, `r2`, ... */
export function receiptId(n: number): string {
  return `r${n}`;
}

/** `[r3 write_file]` with the tool name, or bare `[r1]` without. */
export function formatReceiptCitation(n: number, toolName?: string): string {
  return toolName === undefined ? `[${receiptId(n)}]` : `[${receiptId(n)} ${toolName}]`;
}
