import { z } from 'zod';

/**
 * Zod error map that words issues for people editing YAML (`must be <= 50`,
 * `expected integer, got boolean`, `must be one of queue, reject`). Pass it as `{ error }` to
 * `safeParse`; issues that carry their own message (refinements) keep it.
 */
export const configErrorMap: z.core.$ZodErrorMap = (issue) => {
  switch (issue.code) {
    case 'invalid_type':
      return invalidTypeMessage(issue.expected, issue.input, issue.inst);
    case 'too_big':
      return sizeMessage('at most', issue.origin, issue.maximum, issue.inclusive !== false, '<');
    case 'too_small':
      if (isEmptinessCheck(issue.origin, issue.minimum)) return 'must not be empty';
      return sizeMessage('at least', issue.origin, issue.minimum, issue.inclusive !== false, '>');
    case 'invalid_value':
      return `must be one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'url' ? 'must be a valid URL' : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `must be a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return 'unknown key';
    case 'invalid_key':
      return `key ${issue.issues.map((i) => i.message).join('; ')}`;
    default:
      return undefined;
  }
};

/**
 * Turns zod issues into one-line problems `<key.path>: <message>` (array indices as `models.0.name`).
 * An unknown-keys issue becomes one line per key.
 */
export function issuesToProblems(issues: readonly z.core.$ZodIssue[]): string[] {
  const problems: string[] = [];
  for (const issue of issues) {
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(`${formatKeyPath([...issue.path, key])}: unknown key`);
    } else {
      problems.push(`${formatKeyPath(issue.path)}: ${oneLine(issue.message)}`);
    }
  }
  return problems;
}

/**
 * Formats a key path the way it is written in YAML: `subagents.agents.bash.max_turns`, `models.0.name`.
 * Keys that would be ambiguous in dotted form (empty, containing dots or spaces) are quoted:
 * `tool_freq_overrides["web.search"]`. The root is `(root)`.
 */
export function formatKeyPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  let out = '';
  for (const segment of path) {
    const key = typeof segment === 'symbol' ? segment.toString() : String(segment);
    if (typeof segment === 'number' || /^[A-Za-z0-9_-]+$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(key)}]`;
  }
  return out;
}

function invalidTypeMessage(expected: string, input: unknown, inst: unknown): string {
  if (input === undefined) return 'is required';
  const wantsInteger = expected === 'int' || (inst instanceof z.ZodNumber && (inst.format ?? '').includes('int'));
  if (wantsInteger && typeof input === 'number' && Number.isFinite(input)) return `expected integer, got ${String(input)}`;
  const want = wantsInteger ? 'integer' : expected === 'record' ? 'object' : expected;
  const got = describeType(input);
  // A section whose settings are all commented out parses as null; say how to fix it.
  const hint = input === null && (want === 'object' || want === 'array') ? ' (an empty section: remove the key or add a setting)' : '';
  return `expected ${want}, got ${got}${hint}`;
}

function describeType(input: unknown): string {
  if (input === null) return 'null';
  if (Array.isArray(input)) return 'array';
  if (typeof input === 'number' && !Number.isFinite(input)) return String(input);
  return typeof input;
}

function isEmptinessCheck(origin: string, minimum: number | bigint): boolean {
  return (origin === 'string' || origin === 'array' || origin === 'set') && Number(minimum) === 1;
}

function sizeMessage(bound: 'at most' | 'at least', origin: string, limit: number | bigint, inclusive: boolean, op: '<' | '>'): string {
  const n = String(limit);
  if (origin === 'string') return `must be ${bound} ${n} characters long`;
  if (origin === 'array' || origin === 'set') return `must have ${bound} ${n} items`;
  return `must be ${op}${inclusive ? '=' : ''} ${n}`;
}

function oneLine(message: string): string {
  return message.replace(/\s*\n\s*/g, ' ');
}
