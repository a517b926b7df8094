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
