import { mkdirSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import fc from 'fast-check';

/**
 * Cases per property. Every property is pure validation or an in-process request (no Temporal
 * server), so 1,000 cases take well under a second or two each.
 */
export const FUZZ_RUNS = 1000;

/**
 * Settings of every `fc.assert` here. Seeds are random so CI keeps exploring; a failure prints the
 * seed and path, and `FUZZ_SEED=<seed>` replays that run exactly.
 */
export function fuzzParams<T>(): fc.Parameters<T> {
  countCases(expect.getState().currentTestName ?? 'unnamed property', FUZZ_RUNS);
  const seed = process.env.FUZZ_SEED;
  return seed === undefined || seed === '' ? { numRuns: FUZZ_RUNS } : { numRuns: FUZZ_RUNS, seed: Number(seed) };
}

/** One UTF-16 unit or code point, biased towards what breaks parsers: quotes, separators, controls, lone surrogates. */
const unit = fc.oneof(
  { weight: 4, arbitrary: fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }) },
  { weight: 2, arbitrary: fc.constantFrom(' ', '\t', '\n', '\r', '\u0000', '\u001f', '\u007f', '\u00a0', '\u2028', '\ufeff', '"', '\\', '/', '.', ';', ':', '%', '&', '=', '?', '#') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)) },
);

/**
 * `text` with each lone surrogate replaced by U+FFFD (`String#toWellFormed`, which ES2022 lacks):
 * what a lone surrogate becomes in UTF-8.
 */
export function toWellFormed(text: string): string {
  return text.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
}

/** Any text, including the awkward characters above. */
export const anyText = (maxLength = 40): fc.Arbitrary<string> => fc.string({ unit, maxLength });

/** Text that is blank once trimmed (what `z.string().trim().min(1)` refuses). */
export const blankText = fc.constantFrom('', ' ', '\t', '\n  ', '\u00a0', '\u3000', '\ufeff', ' \r\n ');

/** Text that is not blank once trimmed. */
export const someText = (maxLength = 40): fc.Arbitrary<string> => anyText(maxLength).filter((s) => s.trim() !== '');

/** Text a well-behaved client sends: printable, not blank, no surrounding spaces, no NUL. */
export const plainText = (maxLength = 40): fc.Arbitrary<string> =>
  fc.string({ unit: fc.oneof(fc.string({ unit: 'grapheme-ascii', minLength: 1, maxLength: 1 }), fc.constantFrom('é', '中', '😀', ' ')), minLength: 1, maxLength }).filter(
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is excluded
    (s) => s.trim() === s && s !== '' && !/[\u0000-\u001f\u007f]/.test(s),
  );

/** A thread / batch id (`[A-Za-z0-9][A-Za-z0-9_.-]{0,127}`). */
export const threadIdText = fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,40}$/);

/** Strings that break the thread id rule. */
export const badThreadId = fc.oneof(
  fc.constantFrom('', '.hidden', '-x', '_x', 'a/b', 'a b', '..', 'a\u0000', 'é', 'x'.repeat(129)),
  anyText(20).filter((s) => !/^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(s)),
);

/** JSON values of every type but string. */
export const notString: fc.Arbitrary<unknown> = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
);

/** JSON values of every type but number. */
export const notNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.integer().map(String),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.integer(), { maxKeys: 2 }),
);

/** Numbers that are not positive whole numbers: 0, negatives, fractions, unsafe integers. */
export const notPositiveInt: fc.Arbitrary<number> = fc.oneof(
  fc.integer({ max: 0 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Number.isInteger(n)),
  fc.constantFrom(0.5, 1.000001, -1, 2 ** 53, 1e300, -0),
);

/** A value that is wrong for a field of this kind. */
export const badPositiveInt: fc.Arbitrary<unknown> = fc.oneof(notNumber, notPositiveInt);

/**
 * Keys a closed schema does not know. fast-check's string bias already yields `__proto__`,
 * `constructor` and friends; `known` are left out.
 */
export const unknownKey = (known: readonly string[]): fc.Arbitrary<string> =>
  fc.oneof(fc.string({ minLength: 1, maxLength: 12 }), fc.constantFrom('Message', 'extra', 'a.b', 'x y', '0')).filter((k) => !known.includes(k));

/** A valid value with one field replaced by (or removed for) a bad value, and the field's API name. */
export interface Mutated {
  readonly value: Record<string, unknown>;
  readonly field: string;
}

/**
 * Replaces one field of a valid object by a bad value. `bad` maps each field to the values it must
 * refuse; `undefined` means "leave the field out" (for required fields).
 */
export function mutateOne(valid: fc.Arbitrary<Record<string, unknown>>, bad: Readonly<Record<string, fc.Arbitrary<unknown>>>): fc.Arbitrary<Mutated> {
  const fields = Object.keys(bad);
  return fc.tuple(valid, fc.constantFrom(...fields)).chain(([value, field]) =>
    (bad[field] as fc.Arbitrary<unknown>).map((badValue): Mutated => {
      const copy: Record<string, unknown> = { ...value };
      if (badValue === undefined) delete copy[field];
      else copy[field] = badValue;
      return { value: copy, field };
    }),
  );
}

/** Where fuzz case counts go for `npm run fault:figures` (the fault runs' git-ignored folder). */
const FIGURES_DIR = join(__dirname, '..', '..', '.fault-figures');
const casesByTarget = new Map<string, number>();

function countCases(target: string, cases: number): void {
  casesByTarget.set(target, (casesByTarget.get(target) ?? 0) + cases);
}

// One figures file per test file (`fuzz-<file>.json`), so files running in parallel never share one.
afterAll(() => {
  if (casesByTarget.size === 0) return;
  const file = basename(expect.getState().testPath ?? 'unknown').replace(/\.fuzz\.test\.ts$/, '');
  mkdirSync(FIGURES_DIR, { recursive: true });
  const figures = [...casesByTarget].map(([target, cases]) => ({ target, cases }));
  writeFileSync(join(FIGURES_DIR, `fuzz-${file}.json`), `${JSON.stringify(figures, null, 2)}\n`);
});
