import { checkReport, renderEvidenceCheck, summarizeEvidence, type Receipt } from '../../../src/receipts';

const receipt = (n: number, name: string, outcome: 'ok' | 'error' = 'ok'): Receipt => ({
  id: `r${n}`,
  tool_name: name,
  args_sha256: 'h',
  outcome,
  tool_call_id: `c${n}`,
});
const LEDGER = [receipt(1, 'bash'), receipt(2, 'write_file', 'error')];
const REPORT = 'Created notes.txt [r1 bash]. Ran the tests [r9 bash]. Deleted the cache.';

describe('checkReport (SPEC Appendix C.4 verdicts)', () => {
  it('verifies a resolved citation, flags an id the ledger lacks as unknown and an uncited action as UNVERIFIED', () => {
    const check = checkReport(REPORT, LEDGER);
    expect(check.citations.map((c) => [c.citation.text, c.verdict, c.receipt?.id ?? null])).toEqual([
      ['[r1 bash]', 'verified', 'r1'],
      ['[r9 bash]', 'unknown', null],
    ]);
    expect(check.unverifiedClaims).toEqual(['Deleted the cache.']);
  });

  it('fails a citation whose tool label names another tool; a bare id resolves', () => {
    const check = checkReport('Wrote the file [r1 write_file]. Checked it [r2].', LEDGER);
    expect(check.citations.map((c) => [c.citation.text, c.verdict])).toEqual([
      ['[r1 write_file]', 'failed'],
      ['[r2]', 'verified'],
    ]);
    expect(check.unverifiedClaims).toEqual([]);
  });

  it('counts each distinct citation once and never calls a cited sentence UNVERIFIED', () => {
    const check = checkReport('Ran it [r1 bash]. Ran it again [r1 bash]. Deleted x [r7].', LEDGER);
    expect(check.citations.map((c) => c.verdict)).toEqual(['verified', 'unknown']);
    expect(check.unverifiedClaims).toEqual([]);
  });

  it('finds nothing in a report without citations or claims', () => {
    expect(checkReport('The answer is 42.', LEDGER)).toEqual({ citations: [], unverifiedClaims: [] });
  });
});

describe('summarizeEvidence', () => {
  it('counts verdicts and names what was flagged', () => {
    expect(summarizeEvidence(2, checkReport(`${REPORT} Saved a.txt [r1 write_file]. Wrote b.txt [r2 write_file].`, LEDGER))).toEqual({
      receipts: 2,
      verdicts: { verified: 2, failed: 1, unknown: 1, unverified: 1 },
      flagged: [
        'failed: [r1 write_file] names write_file, but r1 is a bash call',
        'unknown: [r9 bash] is not in the ledger',
        'UNVERIFIED: "Deleted the cache." cites no receipt',
        'note: [r2 write_file] is a call that returned an error',
      ],
    });
  });

  it('has zero verdicts without a report', () => {
    expect(summarizeEvidence(3, null)).toEqual({ receipts: 3, verdicts: { verified: 0, failed: 0, unknown: 0, unverified: 0 }, flagged: [] });
  });

  it('keeps at most 20 flagged lines, the last saying how many more', () => {
    const report = Array.from({ length: 25 }, (_, i) => `Deleted file${i}.`).join(' ');
    const evidence = summarizeEvidence(0, checkReport(report, []));
    expect(evidence.verdicts.unverified).toBe(25);
    expect(evidence.flagged).toHaveLength(20);
    expect(evidence.flagged[18]).toBe('UNVERIFIED: "Deleted file18." cites no receipt');
    expect(evidence.flagged[19]).toBe('... 6 more flagged');
  });

  it('cuts long claims to short lines', () => {
    const [line] = summarizeEvidence(0, checkReport(`Deleted ${'x'.repeat(300)}.`, [])).flagged;
    expect(line).toBe(`UNVERIFIED: "Deleted ${'x'.repeat(109)}..." cites no receipt`);
  });
});

describe('renderEvidenceCheck', () => {
  it('is the advisory text the lead reads', () => {
    expect(renderEvidenceCheck(summarizeEvidence(1, checkReport(REPORT, [receipt(1, 'bash')])))).toBe(
      [
        'Evidence check (advisory, 1 tool receipt): 1 verified, 0 failed, 1 unknown, 1 UNVERIFIED.',
        '- unknown: [r9 bash] is not in the ledger',
        '- UNVERIFIED: "Deleted the cache." cites no receipt',
        'A verified citation shows only that the call happened, not that the claim is correct.',
      ].join('\n'),
    );
    expect(renderEvidenceCheck(summarizeEvidence(0, null))).toBe(
      'Evidence check (advisory, 0 tool receipts): 0 verified, 0 failed, 0 unknown, 0 UNVERIFIED.\nA verified citation shows only that the call happened, not that the claim is correct.',
    );
  });
});
