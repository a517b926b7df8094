import { InvalidArgumentError } from 'commander';

/**
 * A commander parser for an integer option in `lo..hi`; `_` and `,` may group digits
 * (`--items 5_000`, `--events 1,000,000`).
 */
export function intOption(label: string, lo: number, hi: number): (raw: string) => number {
  return (raw) => {
    const value = Number(raw.replace(/[_,]/g, ''));
    if (!Number.isInteger(value) || value < lo || value > hi) throw new InvalidArgumentError(`${label} must be an integer in ${lo}..${hi}`);
    return value;
  };
}
