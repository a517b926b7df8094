import { formatReceiptCitation } from '../../../src/prompts';
import { isActionClaim, parseCitations, splitSentences } from '../../../src/receipts';

describe('parseCitations', () => {
  it('reads what formatReceiptCitation writes (the prompt example and the parser cannot drift)', () => {
    const text = `Wrote it ${formatReceiptCitation(3, 'write_file')} and checked ${formatReceiptCitation(1)}.`;
    expect(parseCitations(text)).toEqual([
      { id: 'r3', toolName: 'write_file', text: '[r3 write_file]' },
      { id: 'r1', toolName: null, text: '[r1]' },
    ]);
  });

  it('reads lists in one bracket and odd tool names', () => {
    expect(parseCitations('[r1 bash, r2; r3 mcp__github.create-issue]').map((c) => c.text)).toEqual([
      '[r1 bash]',
      '[r2]',
      '[r3 mcp__github.create-issue]',
    ]);
  });

  it('ignores web citations, markdown links and other brackets', () => {
    expect(parseCitations('[citation:Docs](https://x.y) [r2 docs](https://x.y) [x1] [r] [r1 two words] [rx]')).toEqual([]);
  });
});

describe('splitSentences', () => {
  it('splits at sentence ends but not inside file names', () => {
    expect(splitSentences('Created notes.txt [r1 bash]. Ran the tests [r9 bash]. Deleted the cache.')).toEqual([
      { text: 'Created notes.txt [r1 bash].', citations: [{ id: 'r1', toolName: 'bash', text: '[r1 bash]' }] },
      { text: 'Ran the tests [r9 bash].', citations: [{ id: 'r9', toolName: 'bash', text: '[r9 bash]' }] },
      { text: 'Deleted the cache.', citations: [] },
    ]);
  });

  it('hands a citation that opens a sentence to the sentence before it', () => {
    expect(splitSentences('Created x. [r1 bash] Then ran y.\n[r2]')).toEqual([
      { text: 'Created x.', citations: [{ id: 'r1', toolName: 'bash', text: '[r1 bash]' }] },
      { text: 'Then ran y.', citations: [{ id: 'r2', toolName: null, text: '[r2]' }] },
    ]);
  });

  it('splits lines and skips fenced code', () => {
    expect(splitSentences('- Wrote a.txt\n```\nDeleted everything.\n```\n\n- Done!').map((s) => s.text)).toEqual(['- Wrote a.txt', '- Done!']);
  });
});

describe('isActionClaim (uncited past-tense actions)', () => {
  it.each([
    'Deleted the cache.',
    'I created notes.txt in the workspace.',
    'The tests were run and all passed; I also fixed the typo.',
    'notes.txt was written to /mnt/user-data/workspace.',
    'Installed the dependencies, but could not start the server.',
    'Ran `npm test`.',
  ])('claims: %s', (sentence) => {
    expect(isActionClaim(sentence)).toBe(true);
  });

  it.each([
    'The file contains 42 lines.',
    'I did not delete the cache.',
    'The cache was not deleted.',
    'Nothing was changed.',
    'The config should be updated before deploying.',
    'Have you installed it?',
    'If it ran, the log would say so.',
    'The output says `Deleted 3 files`.',
    'Unable to tell whether it was modified.',
    "I couldn't find who committed it.",
  ])('does not claim: %s', (sentence) => {
    expect(isActionClaim(sentence)).toBe(false);
  });
});
