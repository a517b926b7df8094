import { z } from 'zod';
import {
  AppConfigSchema,
  ConfigError,
  configErrorMap,
  formatConfigError,
  formatKeyPath,
  isConfigError,
  issuesToProblems,
} from '../../../src/config';
import { problemsOf } from './problems-of';

describe('ConfigError', () => {
  const err = new ConfigError({ code: 'invalid_config', problems: ['a.b: must be >= 1', 'c: unknown key'], path: '/srv/config.yaml' });

  it('has a stable name, a code, readonly problems and the path', () => {
    expect(err.name).toBe('ConfigError');
    expect(err.code).toBe('invalid_config');
    expect(err.path).toBe('/srv/config.yaml');
    expect(Object.isFrozen(err.problems)).toBe(true);
  });

  it('formats a header line and one line per problem', () => {
    expect(formatConfigError(err)).toBe('Invalid config /srv/config.yaml:\n  a.b: must be >= 1\n  c: unknown key');
    expect(err.message).toBe(formatConfigError(err));
  });

  it('is recognised by isConfigError, other errors are not', () => {
    expect(isConfigError(err)).toBe(true);
    expect(isConfigError(new Error('x'))).toBe(false);
    expect(isConfigError({ name: 'ConfigError', code: 'nope', problems: [] })).toBe(false);
    expect(isConfigError(null)).toBe(false);
  });
});

describe('zod issue messages', () => {
  it('formats key paths with indices, and quotes keys that are not plain', () => {
    expect(formatKeyPath(['models', 0, 'name'])).toBe('models.0.name');
    expect(formatKeyPath(['loop_detection', 'tool_freq_overrides', 'web.search', 'warn'])).toBe(
      'loop_detection.tool_freq_overrides["web.search"].warn',
    );
    expect(formatKeyPath([])).toBe('(root)');
  });

  it('words each kind of issue for YAML authors', () => {
    expect(problemsOf('subagents: { max_turns: 0 }')).toEqual(['subagents.max_turns: must be >= 1']);
    expect(problemsOf('subagent_runtime: { max_queued: 10001 }')).toEqual(['subagent_runtime.max_queued: must be <= 10000']);
    expect(problemsOf('subagents: { max_turns: "10" }')).toEqual(['subagents.max_turns: expected integer, got string']);
    expect(problemsOf('token_budget: { warn_threshold: "high" }')).toEqual(['token_budget.warn_threshold: expected number, got string']);
    expect(problemsOf('models: { a: 1 }')).toEqual(['models: expected array, got object']);
    expect(problemsOf('store: { data_dir: "  " }')).toEqual(['store.data_dir: must not be empty']);
    expect(problemsOf('models: [{ name: x, provider: openai, model: m, base_url: "not a url" }]')).toEqual([
      'models.0.base_url: must be a valid URL',
    ]);
    expect(problemsOf('subagents: { custom_agents: { r: { description: d } } }')).toEqual([
      'subagents.custom_agents.r.system_prompt: is required',
    ]);
    expect(problemsOf('subagents: { agents: { "": {} } }')).toEqual(['subagents.agents[""]: key must not be empty']);
    expect(problemsOf('models: [{ name: x, provider: scripted }]')).toEqual(['models.0.script: is required for provider "scripted"']);
  });

  it('accepts strict only on scripted models', () => {
    expect(problemsOf('models: [{ name: x, provider: openai, model: m, strict: false }]')).toEqual([
      'models.0.strict: is not used by provider "openai" (scripted only)',
    ]);
    expect(problemsOf('models: [{ name: x, provider: scripted, script: s.yaml, strict: "no" }]')).toEqual([
      'models.0.strict: expected boolean, got string',
    ]);
    const scripted = AppConfigSchema.parse({ models: [{ name: 'x', provider: 'scripted', script: 's.yaml', strict: false }, { name: 'y', provider: 'scripted', script: 's.yaml' }] });
    expect(scripted.models.map((m) => m.strict)).toEqual([false, undefined]);
  });

  it('checks loop-detection thresholds against each other', () => {
    expect(problemsOf('loop_detection: { warn_threshold: 6, tool_freq_overrides: { bash: { warn: 5, hard_limit: 2 } } }')).toEqual([
      'loop_detection.tool_freq_overrides.bash.hard_limit: must be >= warn',
      'loop_detection.hard_limit: must be >= warn_threshold',
    ]);
  });

  it('can be used with any schema', () => {
    const result = z.strictObject({ n: z.number().int().max(3) }).safeParse({ n: 4, x: 1 }, { error: configErrorMap });
    expect(result.success).toBe(false);
    if (!result.success) expect(issuesToProblems(result.error.issues)).toEqual(['n: must be <= 3', 'x: unknown key']);
  });

  it('gives every parse fresh default objects', () => {
    const a = AppConfigSchema.parse({});
    const b = AppConfigSchema.parse({});
    expect(a.subagents.agents).not.toBe(b.subagents.agents);
    expect(a.summarization.trigger).not.toBe(b.summarization.trigger);
    expect(a.loop_detection.tool_freq_overrides).not.toBe(b.loop_detection.tool_freq_overrides);
  });
});
