import { z } from 'zod';
import { formatZodIssues, zodIssueLines } from '../../../src/contracts/format-zod-issues';

const Schema = z.strictObject({
  title: z.string(),
  runtime: z.object({ subagent: z.strictObject({ name: z.string() }), limits: z.array(z.number().max(10)) }),
});

function issuesOf(value: unknown) {
  const parsed = Schema.safeParse(value);
  if (parsed.success) throw new Error('expected the value to fail');
  return parsed.error.issues;
}

describe('zodIssueLines', () => {
  it('names the whole value with the root label', () => {
    expect(zodIssueLines([{ path: [], message: 'expected object' }], '(input)')).toEqual(['(input): expected object']);
    expect(zodIssueLines(issuesOf('not an object'), '(request)')).toEqual(['(request): Invalid input: expected object, received string']);
  });

  it('dots nested paths, array indices included', () => {
    const lines = zodIssueLines(issuesOf({ title: 'x', runtime: { subagent: {}, limits: [1, 11] } }), '(input)');
    expect(lines).toEqual(['runtime.subagent.name: Invalid input: expected string, received undefined', 'runtime.limits.1: Too big: expected number to be <=10']);
  });

  it('keeps zod’s message for unknown keys unless told how to word them', () => {
    const issues = issuesOf({ title: 'x', runtime: { subagent: { name: 'a' }, limits: [] }, extra: 1, more: 2 });
    expect(zodIssueLines(issues, '(input)')).toEqual(['(input): Unrecognized keys: "extra", "more"']);
    expect(zodIssueLines(issues, '(input)', (keys) => `unknown field(s) ${keys.join(', ')}`)).toEqual(['(input): unknown field(s) extra, more']);
  });

  it('words only unknown-key issues with the callback', () => {
    const unknownKeys = jest.fn((keys: readonly string[]) => `unknown ${keys.join(', ')}`);
    expect(zodIssueLines([{ path: ['title'], message: 'is required', code: 'invalid_type' }], '(input)', unknownKeys)).toEqual(['title: is required']);
    expect(unknownKeys).not.toHaveBeenCalled();
  });

  it('gives no lines for no issues', () => {
    expect(zodIssueLines([], '(input)')).toEqual([]);
  });
});

describe('formatZodIssues', () => {
  it('joins the lines with "; " in issue order', () => {
    const problems = formatZodIssues(issuesOf({ runtime: { subagent: { name: 1 }, limits: [] } }), '(arguments)');
    expect(problems).toBe('title: Invalid input: expected string, received undefined; runtime.subagent.name: Invalid input: expected string, received number');
  });

  it('is one line for one issue, with the root label', () => {
    expect(formatZodIssues([{ path: [], message: 'expected object' }], '(args)')).toBe('(args): expected object');
  });

  it('passes the unknown-key wording on, at the path of the object that has them', () => {
    const problems = formatZodIssues(issuesOf({ runtime: { subagent: { name: 'a', bad: true }, limits: [] } }), '(arguments)', (keys) => `unknown argument(s) ${keys.join(', ')}`);
    expect(problems).toBe('title: Invalid input: expected string, received undefined; runtime.subagent: unknown argument(s) bad');
  });
});
