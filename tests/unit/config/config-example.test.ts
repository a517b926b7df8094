import * as fs from 'node:fs';
import * as path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { z } from 'zod';
import { AppConfigSchema, loadConfig, type AppConfig } from '../../../src/config';

/**
 * config.example.yaml conventions: `##` lines explain, `# ` lines are commented-out examples. An example
 * block whose first line is `key:` replaces the active `key: <default>` line just above it.
 */
const EXAMPLE = path.resolve(__dirname, '../../../config.example.yaml');
const exampleText = fs.readFileSync(EXAMPLE, 'utf8');

/**
 * Where the active (uncommented) example intentionally differs from the all-defaults config, as
 * `[key path, value in the example]`. Empty: every active value in the example is the default.
 */
const INTENTIONAL_DIFFERENCES: ReadonlyArray<readonly [readonly string[], unknown]> = [];

const EXAMPLE_LINE = /^(\s*)# (.*)$/;
const ACTIVE_KEY_LINE = /^(\s*)([A-Za-z0-9_-]+):/;

/** The example with every commented-out block switched on, as a user would by uncommenting it. */
function uncommentAllExamples(text: string): string {
  const lines: Array<string | null> = text.split('\n');
  for (let i = 0; i < lines.length; i += 1) {
    const match = EXAMPLE_LINE.exec(lines[i] ?? '');
    if (match === null) continue;
    const startsBlock = !EXAMPLE_LINE.test(lines[i - 1] ?? '');
    const uncommented = `${match[1] ?? ''}${match[2] ?? ''}`;
    lines[i] = uncommented;
    const key = startsBlock ? ACTIVE_KEY_LINE.exec(uncommented) : null;
    if (key === null) continue;
    for (let j = i - 1; j >= 0; j -= 1) {
      const previous = lines[j];
      if (previous === null || previous === undefined || /^\s*(#|$)/.test(previous)) continue;
      if (previous.startsWith(`${key[1] ?? ''}${key[2] ?? ''}:`)) lines[j] = null;
      break;
    }
  }
  return lines.filter((l): l is string => l !== null).join('\n');
}

interface KeyPath {
  readonly path: readonly string[];
  /** Inside a list or map entry, or under an optional/nullable key: may be absent from the active file. */
  readonly optional: boolean;
  /** Object schema the key belongs to; one schema can sit at several paths (e.g. token budgets). */
  readonly owner: z.core.$ZodType;
}

/** Every key path of a schema; `*` stands for any list index or map key. */
function schemaKeyPaths(schema: z.core.$ZodType, prefix: readonly string[] = [], optional = false): KeyPath[] {
  let inner = schema;
  let innerOptional = optional;
  for (;;) {
    if (inner instanceof z.ZodDefault) inner = inner.unwrap();
    else if (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) {
      inner = inner.unwrap();
      innerOptional = true;
    } else break;
  }
  if (inner instanceof z.ZodObject) {
    return Object.entries(inner.shape).flatMap(([key, child]) => {
      const childPath = [...prefix, key];
      const childOptional = innerOptional || child instanceof z.ZodOptional;
      return [{ path: childPath, optional: childOptional, owner: inner }, ...schemaKeyPaths(child, childPath, childOptional)];
    });
  }
  if (inner instanceof z.ZodArray) return schemaKeyPaths(inner.element, [...prefix, '*'], true);
  if (inner instanceof z.ZodRecord) return schemaKeyPaths(inner.valueType, [...prefix, '*'], true);
  return [];
}

function hasPath(node: unknown, keys: readonly string[]): boolean {
  const [head, ...rest] = keys;
  if (head === undefined) return true;
  if (typeof node !== 'object' || node === null) return false;
  if (head === '*') return Object.values(node).some((child) => hasPath(child, rest));
  return head in node && hasPath((node as Record<string, unknown>)[head], rest);
}

function setPath(target: Record<string, unknown>, keys: readonly string[], value: unknown): void {
  const [head, ...rest] = keys;
  if (head === undefined) return;
  if (rest.length === 0) target[head] = value;
  else setPath(target[head] as Record<string, unknown>, rest, value);
}

describe('config.example.yaml', () => {
  const active: unknown = parseYaml(exampleText);
  const everything: unknown = parseYaml(uncommentAllExamples(exampleText));
  const keyPaths = schemaKeyPaths(AppConfigSchema);

  it('validates and equals the all-defaults config, except for the listed differences', () => {
    const example = loadConfig({ path: EXAMPLE, env: {} });
    const defaults = loadConfig({ path: null, env: {}, cwd: path.dirname(EXAMPLE) });
    const expected = structuredClone(defaults.config) as AppConfig & Record<string, unknown>;
    for (const [keys, value] of INTENTIONAL_DIFFERENCES) setPath(expected, keys, value);
    expect(example.config).toEqual(expected);
  });

  it('writes out every key that is not inside a list or map entry', () => {
    const missing = keyPaths.filter((k) => !k.optional && !hasPath(active, k.path)).map((k) => k.path.join('.'));
    expect(missing).toEqual([]);
  });

  it('shows every key of the schema, at least in a commented-out example', () => {
    // A key of a schema used at several places (token budgets) needs showing at one of them only.
    const shown = (k: KeyPath): boolean =>
      keyPaths.some((other) => other.owner === k.owner && other.path.at(-1) === k.path.at(-1) && hasPath(everything, other.path));
    const missing = keyPaths.filter((k) => !shown(k)).map((k) => k.path.join('.'));
    expect(missing).toEqual([]);
  });

  it('stays valid with every commented-out example switched on', () => {
    const result = AppConfigSchema.safeParse(everything);
    expect(result.success ? [] : result.error.issues).toEqual([]);
  });

  it('has an example for each provider, a custom agent, a per-agent override and a lead agent', () => {
    const config = AppConfigSchema.parse(everything);
    const providers = config.models.map((m) => m.provider);
    expect(providers).toEqual(expect.arrayContaining(['openai', 'anthropic', 'ollama', 'scripted']));
    expect(config.models.some((m) => m.provider === 'openai' && m.base_url?.startsWith('http://localhost'))).toBe(true);
    expect(config.models.find((m) => m.provider === 'scripted')?.script).toBe('./scenarios/demo.yaml');
    expect(Object.keys(config.subagents.custom_agents)).not.toHaveLength(0);
    expect(Object.keys(config.subagents.agents)).not.toHaveLength(0);
    expect(Object.values(config.agents).some((a) => Array.isArray(a.allowed_subagents) && a.allowed_subagents.length > 0)).toBe(true);
  });

  it('keeps explanations (##) apart from commented-out examples (# )', () => {
    const stray = exampleText.split('\n').filter((line) => /^\s*#[^# ]/.test(line));
    expect(stray).toEqual([]);
  });
});
