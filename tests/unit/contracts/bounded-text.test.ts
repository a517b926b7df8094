import { boundText, METADATA_TEXT_MAX_CHARS } from '../../../src/contracts/bounded-text';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

describe('boundText (SPEC §3.2)', () => {
  it('defaults to the 2000-char metadata cap', () => {
    expect(METADATA_TEXT_MAX_CHARS).toBe(2000);
    const text = `${'h'.repeat(1500)}${'t'.repeat(1500)}`;
    const bounded = boundText(text);
    expect(bounded).toHaveLength(2000);
    // head = floor(2000 * 2 / 3) = 1333, tail = 2000 - 1333 - 5 = 662
    expect(bounded).toBe(`${'h'.repeat(1333)}\n...\n${'t'.repeat(662)}`);
  });

  it('returns text within the cap unchanged', () => {
    expect(boundText('hello', 5)).toBe('hello');
    expect(boundText('x'.repeat(2000))).toBe('x'.repeat(2000));
  });

  it('cap 0 gives the empty string', () => {
    expect(boundText(ALPHABET, 0)).toBe('');
  });

  it('cap 1 gives the first char', () => {
    expect(boundText(ALPHABET, 1)).toBe('A');
  });

  it('caps up to the marker length keep a plain prefix', () => {
    expect(boundText(ALPHABET, 5)).toBe('ABCDE');
    expect(boundText(ALPHABET, 3)).toBe('ABC');
  });

  it('cap 15 stays within 15 chars (tail would be empty, so a plain prefix)', () => {
    const bounded = boundText(ALPHABET, 15);
    expect(bounded.length).toBeLessThanOrEqual(15);
    // head = 10, tail = 15 - 10 - 5 = 0 → first 15 chars
    expect(bounded).toBe('ABCDEFGHIJKLMNO');
  });

  it('cap 6 (negative tail) falls back to a prefix', () => {
    expect(boundText(ALPHABET, 6)).toBe('ABCDEF');
  });

  it('keeps head 2/3 + marker + tail when the tail fits', () => {
    // cap 20: head 13, tail 2
    expect(boundText(ALPHABET, 20)).toBe('ABCDEFGHIJKLM\n...\nYZ');
    // cap 21: head 14, tail 2
    expect(boundText(ALPHABET, 21)).toBe('ABCDEFGHIJKLMN\n...\nYZ');
    // cap 25: head 16, tail 4
    expect(boundText(ALPHABET, 25)).toBe('ABCDEFGHIJKLMNOP\n...\nWXYZ');
  });

  it('bounded output is never longer than the cap', () => {
    for (let cap = 0; cap <= 40; cap += 1) {
      expect(boundText(ALPHABET.repeat(3), cap).length).toBeLessThanOrEqual(cap);
    }
  });

  it('strips before measuring', () => {
    expect(boundText('   ABC   ', 3)).toBe('ABC');
    expect(boundText('\n\t  hello world  \n')).toBe('hello world');
  });

  it('strips before bounding, so the tail is real text and not padding', () => {
    expect(boundText(`   ${ALPHABET}   \n`, 20)).toBe('ABCDEFGHIJKLM\n...\nYZ');
  });

  it('blank text becomes empty', () => {
    expect(boundText('  \n  ')).toBe('');
  });
});
