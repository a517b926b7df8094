import { mkdtempSync, writeFileSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import {
  clearScenarioCache,
  loadScenario,
  loadScenarioCached,
  parseScenario,
  ruleMatches,
  selectSubagentTurns,
} from '../../../src/models/scenario';
import { isScenarioInvalidError, type ScenarioInvalidError } from '../../../src/models/errors';

const FIXTURES = join(__dirname, '../../fixtures/scenarios');

function expectInvalid(fn: () => unknown): ScenarioInvalidError {
  try {
    fn();
  } catch (err) {
    if (isScenarioInvalidError(err)) return err;
    throw err;
  }
  throw new Error('expected a ScenarioInvalidError');
}

describe('scenario schema', () => {
  it('loads the documented YAML example with defaults applied', () => {
    const s = loadScenario(join(FIXTURES, 'demo.yaml'));
    expect(s.lead).toHaveLength(2);
    expect(s.lead?.[0]?.usage).toEqual({ input_tokens: 120, output_tokens: 40, total_tokens: 160 });
    expect(s.lead?.[1]?.usage).toBeUndefined();
    expect(s.subagents?.[0]?.match).toBe('Find X');
    expect(s.subagents?.[0]?.turns[0]?.tool_calls?.[0]).toEqual({ name: 'bash', args: { command: 'echo 42' } });
  });

  it('loads JSON through the YAML parser and keeps an explicit total_tokens', () => {
    const s = loadScenario(join(FIXTURES, 'demo.json'));
    expect(s.lead?.[0]).toEqual({ content: 'hello from JSON', usage: { input_tokens: 3, output_tokens: 4, total_tokens: 9 } });
  });

  it('defaults tool call args to {}', () => {
    const s = parseScenario({ lead: [{ tool_calls: [{ name: 'noop' }] }] }, 'inline');
    expect(s.lead?.[0]?.tool_calls?.[0]?.args).toEqual({});
  });

  it('accepts an empty document as a scenario without turns', () => {
    expect(parseScenario(null, 'empty.yaml')).toEqual({});
  });

  it('names the file and field path of a bad repeat', () => {
    const err = expectInvalid(() => loadScenario(join(FIXTURES, 'invalid-repeat.yaml')));
    expect(err.name).toBe('ScenarioInvalidError');
    expect(err.code).toBe('SCENARIO_INVALID');
    expect(err.message).toBe(
      `scenario ${join(FIXTURES, 'invalid-repeat.yaml')}: subagents.0.turns.1.repeat: must be a positive integer or "forever"`,
    );
  });

  it.each([[0], [-1], [1.5], ['sometimes'], [null]])('rejects repeat %p with the same message', (repeat) => {
    const err = expectInvalid(() => parseScenario({ lead: [{ content: 'x', repeat }] }, 'demo.yaml'));
    expect(err.message).toBe('scenario demo.yaml: lead.0.repeat: must be a positive integer or "forever"');
  });

  it('reports unknown fields, empty turns and broken regexes together', () => {
    const err = expectInvalid(() => loadScenario(join(FIXTURES, 'invalid-fields.yaml')));
    expect(err.issues).toEqual([
      'lead.0: unknown field "colour"',
      'lead.1: a turn needs at least one of content, tool_calls or error',
      'subagents.0.match: is not a valid regular expression',
    ]);
  });

  it('rejects unknown top-level keys and bad field types', () => {
    expect(expectInvalid(() => parseScenario({ leads: [] }, 'a.yaml')).issues).toEqual(['(root): unknown field "leads"']);
    expect(expectInvalid(() => parseScenario({ lead: [{ content: 'x', delay_ms: -5 }] }, 'a.yaml')).issues).toEqual([
      'lead.0.delay_ms: must be a non-negative integer',
    ]);
    expect(expectInvalid(() => parseScenario({ lead: [{ tool_calls: [{ name: 'x', args: [1] }] }] }, 'a.yaml')).issues).toEqual([
      'lead.0.tool_calls.0.args: must be an object',
    ]);
    expect(expectInvalid(() => parseScenario([1], 'a.yaml')).issues).toEqual([
      '(root): must be an object with "lead", "subagents" and/or "summarizer"',
    ]);
  });

  it('wraps unreadable files and YAML syntax errors', () => {
    expect(expectInvalid(() => loadScenario(join(FIXTURES, 'missing.yaml'))).message).toMatch(
      /^scenario .*missing\.yaml: cannot read file: /,
    );
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, 'lead: [1');
    expect(expectInvalid(() => loadScenario(bad)).message).toMatch(/^scenario .*bad\.yaml: not valid YAML or JSON: /);
  });

  it('freezes parsed scenarios so shared cached copies cannot be mutated', () => {
    const s = parseScenario({ lead: [{ content: 'x' }] }, 'inline');
    expect(Object.isFrozen(s.lead?.[0])).toBe(true);
  });
});

describe('scenario cache', () => {
  it('re-parses only when the file changes', () => {
    clearScenarioCache();
    const dir = mkdtempSync(join(tmpdir(), 'scenario-'));
    const file = join(dir, 's.yaml');
    writeFileSync(file, 'lead: [ { content: one } ]');
    const first = loadScenarioCached(file);
    expect(loadScenarioCached(file)).toBe(first);
    writeFileSync(file, 'lead: [ { content: two } ]');
    utimesSync(file, new Date(), new Date(Date.now() + 5000));
    const second = loadScenarioCached(file);
    expect(second).not.toBe(first);
    expect(second.lead?.[0]?.content).toBe('two');
  });
});

describe('rule matching', () => {
  it('supports substring, /regex/flags and *', () => {
    expect(ruleMatches('Find X', 'Please Find X now')).toBe(true);
    expect(ruleMatches('Find X', 'find x')).toBe(false);
    expect(ruleMatches('/find\\s+x/i', 'FIND   X')).toBe(true);
    expect(ruleMatches('/^find/', 'we find')).toBe(false);
    expect(ruleMatches('*', '')).toBe(true);
    // Not a /regex/flags form (flags invalid): matched as a plain substring.
    expect(ruleMatches('/tmp/foo', 'ls /tmp/foo')).toBe(true);
  });

  it('is stateless even with the g flag', () => {
    expect(ruleMatches('/a/g', 'a')).toBe(true);
    expect(ruleMatches('/a/g', 'a')).toBe(true);
  });

  it('picks the first matching rule, and [] when none matches', () => {
    const s = loadScenario(join(FIXTURES, 'rules.yaml'));
    const first = (prompt: string): string | undefined => selectSubagentTurns(s, prompt)[0]?.content;
    expect(first('REPORT: weather')).toBe('regex rule');
    expect(first('the weather in Paris')).toBe('substring rule 1');
    expect(first('anything else')).toBe('catch-all rule');
    expect(selectSubagentTurns(loadScenario(join(FIXTURES, 'demo.yaml')), 'unrelated')).toEqual([]);
  });
});
