import { InvalidArgumentError } from 'commander';

/**
 * A commander parser for an integer option in `lo..hi`; `_` and `,` may group digits
 * (`--items 5_000`, `--events 1,000,000`).
 */
export function intOption(label: string, lo: number, hi: number): (raw: string) => number {
  return (raw) => {
    const digits = raw.replace(/[_,]/g, '');
    // Digits only: `Number` alone would take '' (0), '1e3' and '0x10'.
    const value = /^\d+$/.test(digits) ? Number(digits) : Number.NaN;
    if (!Number.isSafeInteger(value) || value < lo || value > hi) throw new InvalidArgumentError(`${label} must be an integer in ${lo}..${hi}`);
    return value;
  };
}

/**
 * {@link intOption}, or the word `null` for a setting whose null means something of its own (V8's
 * default). Commander turns a parser's null into '', so the word stays a word until {@link orNull}.
 */
export function intOrNullOption(label: string, lo: number, hi: number): (raw: string) => number | 'null' {
  const parse = intOption(label, lo, hi);
  return (raw) => (raw === 'null' ? 'null' : parse(raw));
}

/** The value of an {@link intOrNullOption}: the word `null` as null. */
export function orNull(value: number | 'null'): number | null {
  return value === 'null' ? null : value;
}
