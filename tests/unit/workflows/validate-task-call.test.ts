import type { CatalogEntry, ToolCall } from '../../../src/contracts';
import { TASK_DESCRIPTION_MAX_CHARS, validateTaskCall } from '../../../src/workflows/validate-task-call';

const GP: CatalogEntry = { name: 'general-purpose', timeoutSeconds: 1800, maxTurns: 150 };
const BASH: CatalogEntry = { name: 'bash', timeoutSeconds: 1800, maxTurns: 60 };
const CATALOG: readonly CatalogEntry[] = [GP, BASH];

const call = (args: Record<string, unknown>): ToolCall => ({ id: 'call_1', name: 'task', args, argsTruncated: false });
const valid = { description: 'Inspect repo', prompt: 'List the files in the workspace.', subagent_type: 'general-purpose' };

function errorOf(args: Record<string, unknown>, catalog: readonly CatalogEntry[] = CATALOG): string {
  const check = validateTaskCall(call(args), catalog);
  if (check.ok) throw new Error('expected the call to be rejected');
  return check.error;
}

describe('validateTaskCall: accepted calls', () => {
  it('returns the description and the catalog entry', () => {
    expect(validateTaskCall(call(valid), CATALOG)).toEqual({ ok: true, description: 'Inspect repo', subagent: GP });
  });

  it('returns the very catalog entry object that matched', () => {
    const check = validateTaskCall(call({ ...valid, subagent_type: 'bash' }), CATALOG);
    expect(check.ok && check.subagent).toBe(BASH);
  });

  it('accepts optional acceptance_criteria', () => {
    const check = validateTaskCall(call({ ...valid, acceptance_criteria: ['file:/mnt/user-data/outputs/a.md non-empty'] }), CATALOG);
    expect(check.ok).toBe(true);
  });

  it('strips surrounding whitespace from the description and subagent type', () => {
    expect(validateTaskCall(call({ ...valid, description: '  Inspect repo \n', subagent_type: ' bash ' }), CATALOG)).toEqual({
      ok: true,
      description: 'Inspect repo',
      subagent: BASH,
    });
  });

  it(`bounds the description to ${TASK_DESCRIPTION_MAX_CHARS} chars, head and tail kept`, () => {
    expect(TASK_DESCRIPTION_MAX_CHARS).toBe(200);
    const long = `${'h'.repeat(150)}${'t'.repeat(150)}`;
    const check = validateTaskCall(call({ ...valid, description: long }), CATALOG);
    if (!check.ok) throw new Error(check.error);
    expect(check.description).toHaveLength(200);
    expect(check.description).toBe(`${'h'.repeat(133)}\n...\n${'t'.repeat(62)}`);
  });

  it('keeps a description of exactly 200 chars unchanged', () => {
    const exact = 'd'.repeat(200);
    const check = validateTaskCall(call({ ...valid, description: exact }), CATALOG);
    expect(check.ok && check.description).toBe(exact);
  });
});

describe('validateTaskCall: invalid arguments name the field', () => {
  it('names every missing field', () => {
    expect(errorOf({})).toBe('Invalid task arguments: description: is required; prompt: is required; subagent_type: is required');
  });

  it('names only the missing field', () => {
    expect(errorOf({ description: 'x', prompt: 'p' })).toBe('Invalid task arguments: subagent_type: is required');
  });

  it.each([
    ['description', 'description: must not be empty (3-5 words)'],
    ['prompt', 'prompt: must not be empty (the complete task)'],
    ['subagent_type', 'subagent_type: must not be empty (a subagent name)'],
  ])('rejects a blank %s', (field, message) => {
    expect(errorOf({ ...valid, [field]: '  \n\t ' })).toBe(`Invalid task arguments: ${message}`);
  });

  it.each([
    ['description', 5, 'description: must be a string (3-5 words)'],
    ['prompt', null, 'prompt: must be a string (the complete task)'],
    ['subagent_type', ['bash'], 'subagent_type: must be a string (a subagent name)'],
  ])('rejects a non-string %s', (field, value, message) => {
    expect(errorOf({ ...valid, [field]: value })).toBe(`Invalid task arguments: ${message}`);
  });

  it('lists unknown keys', () => {
    expect(errorOf({ ...valid, extra: 1, other: 'x' })).toBe('Invalid task arguments: (arguments): unknown argument(s) extra, other');
  });

  it('names a malformed acceptance_criteria entry by path', () => {
    expect(errorOf({ ...valid, acceptance_criteria: ['ok', 3] })).toMatch(/^Invalid task arguments: acceptance_criteria\.1: /);
  });

  it('reports argument problems before looking the subagent up', () => {
    expect(errorOf({ description: '', prompt: 'p', subagent_type: 'nope' })).toBe(
      'Invalid task arguments: description: must not be empty (3-5 words)',
    );
  });
});

describe('validateTaskCall: subagent type', () => {
  it('rejects an unknown type listing the available ones in catalog order', () => {
    expect(errorOf({ ...valid, subagent_type: 'researcher' })).toBe(
      "Unknown subagent type 'researcher'. Available: general-purpose, bash",
    );
  });

  it('is case-sensitive', () => {
    expect(errorOf({ ...valid, subagent_type: 'Bash' })).toBe("Unknown subagent type 'Bash'. Available: general-purpose, bash");
  });

  it('says "Available: none" for an empty catalog', () => {
    expect(errorOf(valid, [])).toBe("Unknown subagent type 'general-purpose'. Available: none");
  });

  it('lists a single-entry catalog without separators', () => {
    expect(errorOf({ ...valid, subagent_type: 'researcher' }, [GP])).toBe(
      "Unknown subagent type 'researcher'. Available: general-purpose",
    );
  });

  // SPEC §3.7 step 3: the host-bash guidance is checked before the membership gate.
  test('bash requested while host bash is disabled gets the dedicated guidance, before the membership check', () => {
    const check = validateTaskCall(call({ ...valid, subagent_type: 'bash' }), [GP], { allowedSubagents: ['general-purpose'], hostBashAllowed: false });
    expect(check.ok).toBe(false);
    expect(check.ok ? '' : check.error).toMatch(/^Bash subagent is disabled/);
    expect(check.ok ? '' : check.error).toContain('sandbox.allow_host_bash: true');
  });

  test('bash outside the catalog while host bash is allowed is an unknown type', () => {
    expect(validateTaskCall(call({ ...valid, subagent_type: 'bash' }), [GP], { allowedSubagents: ['general-purpose'], hostBashAllowed: true })).toEqual({
      ok: false,
      error: "Unknown subagent type 'bash'. Available: general-purpose",
    });
  });

  test('an empty catalog caused by caller policy says "none permitted by caller policy"', () => {
    expect(validateTaskCall(call(valid), [], { allowedSubagents: ['researcher'], hostBashAllowed: true })).toEqual({
      ok: false,
      error: "Unknown subagent type 'general-purpose'. Available: none permitted by caller policy",
    });
    expect(validateTaskCall(call(valid), [], { allowedSubagents: [], hostBashAllowed: true })).toEqual({
      ok: false,
      error: "Unknown subagent type 'general-purpose'. Available: none permitted by caller policy",
    });
  });
});

describe('validateTaskCall: per-call timeout_seconds', () => {
  it('a shorter timeout applies to this task only (the catalog entry is not changed)', () => {
    const check = validateTaskCall(call({ ...valid, timeout_seconds: 60 }), CATALOG);
    expect(check).toEqual({ ok: true, description: 'Inspect repo', subagent: { ...GP, timeoutSeconds: 60 } });
    expect(GP.timeoutSeconds).toBe(1800);
  });

  it('a longer one is clamped to the configured timeout, never above it', () => {
    const check = validateTaskCall(call({ ...valid, timeout_seconds: 99_999 }), CATALOG);
    expect(check.ok && check.subagent).toBe(GP);
  });

  it.each([
    [0, 'timeout_seconds: must be at least 1'],
    [1.5, 'timeout_seconds: must be a whole number of seconds'],
    ['60', 'timeout_seconds: must be a whole number of seconds'],
  ])('rejects %p naming the field', (timeout, message) => {
    expect(errorOf({ ...valid, timeout_seconds: timeout })).toBe(`Invalid task arguments: ${message}`);
  });
});
