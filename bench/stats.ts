/** Small statistics and text-table helpers for the benchmark report. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

export function min(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : Math.min(...values);
}

export function max(values: readonly number[]): number {
  return values.length === 0 ? Number.NaN : Math.max(...values);
}

/** `1.23` with `digits` decimals, or `-` for NaN. */
export function fixed(value: number, digits = 1): string {
  return Number.isFinite(value) ? value.toFixed(digits) : '-';
}

/** Renders rows as a left/right aligned text table (numbers right-aligned) with a rule under the header. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const isNumeric = header.map((_, i) => rows.every((r) => /^[-\d.x /%]*$/.test(r[i] ?? '')));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, i) => (isNumeric[i] && i > 0 ? cell.padStart(widths[i] ?? 0) : cell.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

/** `median / min` of `values`. */
export function medMin(values: readonly number[], digits = 2): string {
  return `${fixed(median(values), digits)} / ${fixed(min(values), digits)}`;
}

/** `median(a) / median(b)`, then `min(a) / min(b)`: `3.1x / 4.0x`. */
export function ratio(a: readonly number[], b: readonly number[]): string {
  return `${fixed(median(a) / median(b), 1)}x / ${fixed(min(a) / min(b), 1)}x`;
}

/** `median(a) / (median(b) + median(c))`, then the same of the mins: a ratio against a sum of two anchors. */
export function ratioToSum(a: readonly number[], b: readonly number[], c: readonly number[]): string {
  return `${fixed(median(a) / (median(b) + median(c)), 1)}x / ${fixed(min(a) / (min(b) + min(c)), 1)}x`;
}
