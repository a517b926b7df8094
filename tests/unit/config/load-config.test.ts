import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { AppConfigSchema, isConfigError, loadConfig, type ConfigError, type LoadedConfig } from '../../../src/config';

const FIXTURES = path.resolve(__dirname, '../../fixtures/config');
const fixture = (name: string): string => path.join(FIXTURES, name);

/** Loads a fixture that must fail and returns the ConfigError. */
function loadError(name: string, env: NodeJS.ProcessEnv = {}): ConfigError {
  try {
    loadConfig({ path: fixture(name), env });
  } catch (err) {
    if (isConfigError(err)) return err;
    throw err;
  }
  throw new Error(`expected ${name} to be rejected`);
}

describe('loadConfig: defaults', () => {
  it('returns every default when there is no config file', () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'deerflow-config-'));
    const loaded = loadConfig({ path: null, env: {}, cwd });

    expect(loaded.path).toBeNull();
    expect(loaded.dir).toBe(cwd);
    const expected = AppConfigSchema.parse({});
    expect(loaded.config).toEqual({ ...expected, store: { ...expected.store, data_dir: path.join(cwd, '.deerflow') } });
    expect(loaded.config.subagents.max_total_per_run).toBe(6);
    expect(loaded.config.subagents.timeout_seconds).toBe(1800);
    expect(loaded.config.subagent_runtime).toEqual({ max_running: 3, max_queued: 64, admission_policy: 'queue', queue_timeout_seconds: 300, polling_grace_seconds: 60, heartbeat_timeout_seconds: 30, max_task_extension_seconds: 3600, progress_signal_seconds: 5 });
    expect(loaded.config.token_budget).toMatchObject({ enabled: false, max_tokens: 200_000, warn_threshold: 0.8, hard_stop_threshold: 1 });
    expect(loaded.config.temporal).toEqual({ address: null, namespace: 'default', ui_url: null, tls: null, api_key_env: null });
  });

  it.each(['empty.yaml', 'comments-only.yaml'])('treats %s as all defaults', (name) => {
    const loaded = loadConfig({ path: fixture(name), env: {} });
    const none = loadConfig({ path: null, env: {}, cwd: FIXTURES });
    expect(loaded.config).toEqual(none.config);
    expect(loaded.path).toBe(fixture(name));
    expect(loaded.dir).toBe(FIXTURES);
  });

  it('reads a valid file and resolves store.data_dir against the config folder', () => {
    const loaded = loadConfig({ path: fixture('valid.yaml'), env: {} });
    expect(loaded.config.default_model).toBe('demo');
    expect(loaded.config.models.map((m) => m.name)).toEqual(['demo', 'local']);
    expect(loaded.config.models[0]).toMatchObject({ provider: 'scripted', script: './scenarios/demo.yaml', max_retries: 0 });
    expect(loaded.config.subagents.max_total_per_run).toBe(10);
    expect(loaded.config.subagents.custom_agents['researcher']).toMatchObject({ model: 'inherit', max_turns: 50, timeout_seconds: 900 });
    expect(loaded.config.store.data_dir).toBe(path.join(FIXTURES, 'state'));
    expect(loaded.config.temporal.address).toBe('temporal.internal:7233');
  });

  it('resolves a relative path against cwd', () => {
    const loaded = loadConfig({ path: 'valid.yaml', env: {}, cwd: FIXTURES });
    expect(loaded.path).toBe(fixture('valid.yaml'));
  });

  it('expands ~/ in store.data_dir to the home folder', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deerflow-config-'));
    const file = path.join(dir, 'config.yaml');
    fs.writeFileSync(file, 'store:\n  data_dir: ~/deerflow-data\n');
    expect(loadConfig({ path: file, env: {} }).config.store.data_dir).toBe(path.join(os.homedir(), 'deerflow-data'));
  });
});

describe('loadConfig: validation problems', () => {
  it('rejects max_total_per_run 51 with the key path and range', () => {
    const err = loadError('max-total-too-big.yaml');
    expect(err.code).toBe('invalid_config');
    expect(err.problems).toEqual(['subagents.max_total_per_run: must be <= 50']);
    expect(err.path).toBe(fixture('max-total-too-big.yaml'));
  });

  it('rejects max_total_per_run 0', () => {
    expect(loadError('max-total-zero.yaml').problems).toEqual(['subagents.max_total_per_run: must be >= 1']);
  });

  it('reports wrong types with the expected and received type', () => {
    expect(loadError('wrong-types.yaml').problems).toEqual([
      'subagents.timeout_seconds: expected integer, got string',
      'subagents.max_total_per_run: expected integer, got boolean',
      'subagent_runtime.max_running: expected integer, got 2.5',
      'sandbox.allow_host_bash: expected boolean, got string',
    ]);
  });

  it('reports unknown keys at the top level and nested, one line per key', () => {
    expect(loadError('unknown-keys.yaml').problems).toEqual([
      'subagents.max_total_per_runs: unknown key',
      'subagents.foo: unknown key',
      'subagent: unknown key',
    ]);
  });

  it('lists the allowed values of an enum', () => {
    expect(loadError('bad-enum.yaml').problems).toEqual(['subagent_runtime.admission_policy: must be one of queue, reject']);
  });

  it('rejects a token budget whose hard stop is below the warning', () => {
    expect(loadError('budget-hard-below-warn.yaml').problems).toEqual(['token_budget.hard_stop_threshold: must be >= warn_threshold']);
  });

  it('rejects duplicate model names', () => {
    expect(loadError('duplicate-models.yaml').problems).toEqual(['models.1.name: duplicate model name "fast"']);
  });

  it('rejects a default_model that is not configured', () => {
    expect(loadError('unknown-default-model.yaml').problems).toEqual([
      'default_model: "smart" is not a configured model (configured: fast)',
    ]);
  });

  it('reports every problem, including cross-field ones, not just the first', () => {
    const err = loadError('many-problems.yaml');
    expect([...err.problems].sort()).toEqual(
      [
        'models.1.name: duplicate model name "fast"',
        'default_model: "smart" is not a configured model (configured: fast)',
        'token_budget.hard_stop_threshold: must be >= warn_threshold',
        'subagents.max_total_per_run: must be <= 50',
        'subagents.timeout_seconds: expected integer, got string',
        'subagent_runtime.admission_policy: must be one of queue, reject',
        'sandbox.shell: unknown key',
      ].sort(),
    );
    expect(err.message.split('\n')).toEqual([`Invalid config ${fixture('many-problems.yaml')}:`, ...err.problems.map((p) => `  ${p}`)]);
  });

  it('says how to fix a section left empty', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deerflow-config-'));
    const file = path.join(dir, 'config.yaml');
    fs.writeFileSync(file, 'subagents:\n  # max_total_per_run: 6\n');
    expect(() => loadConfig({ path: file, env: {} })).toThrow(
      'subagents: expected object, got null (an empty section: remove the key or add a setting)',
    );
  });

  it('rejects a file whose top level is not a mapping', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deerflow-config-'));
    const file = path.join(dir, 'config.yaml');
    fs.writeFileSync(file, '- models\n');
    expect(() => loadConfig({ path: file, env: {} })).toThrow('(root): expected object, got array');
  });
});

describe('loadConfig: unreadable files and YAML errors', () => {
  it('reports YAML syntax errors with line and column', () => {
    const err = loadError('yaml-syntax.yaml');
    expect(err.code).toBe('yaml_syntax');
    expect(err.problems).toHaveLength(1);
    expect(err.problems[0]).toMatch(/^line 3, column \d+: /);
  });

  it('treats duplicate YAML keys as syntax errors', () => {
    const err = loadError('yaml-duplicate-key.yaml');
    expect(err.code).toBe('yaml_syntax');
    expect(err.problems).toEqual(['line 3, column 3: Map keys must be unique']);
  });

  it('rejects unresolved YAML tags instead of loading them as strings', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deerflow-config-'));
    const file = path.join(dir, 'config.yaml');
    fs.writeFileSync(file, 'store:\n  postgres_url: !env DATABASE_URL\n');
    expect(() => loadConfig({ path: file, env: {} })).toThrow(/line 2, column \d+: Unresolved tag: !env/);
  });

  it('reports a missing file as unreadable instead of falling back to defaults', () => {
    const missing = fixture('does-not-exist.yaml');
    const err = loadError('does-not-exist.yaml');
    expect(err.code).toBe('unreadable_config');
    expect(err.path).toBe(missing);
    expect(err.problems[0]).toMatch(/^cannot read file: ENOENT/);
  });
});

describe('loadConfig: environment overrides', () => {
  it('applies TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and DATABASE_URL over the file', () => {
    const loaded = loadConfig({
      path: fixture('valid.yaml'),
      env: { TEMPORAL_ADDRESS: 'temporal.prod:7233', TEMPORAL_NAMESPACE: 'deerflow', TEMPORAL_UI_URL: 'http://temporal.prod:8080', DATABASE_URL: 'postgres://u:p@db:5432/deerflow' },
    });
    expect(loaded.config.temporal).toEqual({ address: 'temporal.prod:7233', namespace: 'deerflow', ui_url: 'http://temporal.prod:8080', tls: null, api_key_env: null });
    expect(loaded.config.store.postgres_url).toBe('postgres://u:p@db:5432/deerflow');
    expect(loaded.config.subagents.max_total_per_run).toBe(10);
  });

  it('applies overrides when there is no file', () => {
    const loaded = loadConfig({ path: null, env: { TEMPORAL_ADDRESS: 'localhost:7233' }, cwd: FIXTURES });
    expect(loaded.config.temporal.address).toBe('localhost:7233');
  });

  it('ignores empty variables', () => {
    const loaded = loadConfig({ path: fixture('valid.yaml'), env: { TEMPORAL_ADDRESS: '', DATABASE_URL: '' } });
    expect(loaded.config.temporal.address).toBe('temporal.internal:7233');
    expect(loaded.config.store.postgres_url).toBeNull();
  });

  it('validates override values and names the variable', () => {
    let caught: unknown;
    try {
      loadConfig({ path: null, env: { TEMPORAL_NAMESPACE: '   ' }, cwd: FIXTURES });
    } catch (err) {
      caught = err;
    }
    expect(isConfigError(caught)).toBe(true);
    const err = caught as ConfigError;
    expect(err.code).toBe('invalid_config');
    expect(err.path).toBeNull();
    expect(err.problems).toEqual(['temporal.namespace: must not be empty (from environment variable TEMPORAL_NAMESPACE)']);
    expect(err.message.split('\n')[0]).toBe('Invalid config (no config file):');
  });

  it('still rejects an invalid file even when overrides are set', () => {
    expect(loadError('max-total-too-big.yaml', { TEMPORAL_ADDRESS: 'localhost:7233' }).problems).toEqual([
      'subagents.max_total_per_run: must be <= 50',
    ]);
  });
});

describe('loadConfig: frozen result', () => {
  const loaded: LoadedConfig = loadConfig({ path: fixture('valid.yaml'), env: {} });

  it('freezes the result deeply', () => {
    expect(Object.isFrozen(loaded)).toBe(true);
    expect(Object.isFrozen(loaded.config)).toBe(true);
    expect(Object.isFrozen(loaded.config.subagents)).toBe(true);
    expect(Object.isFrozen(loaded.config.subagents.custom_agents['researcher']?.disallowed_tools)).toBe(true);
    expect(Object.isFrozen(loaded.config.models)).toBe(true);
    expect(Object.isFrozen(loaded.config.models[0])).toBe(true);
  });

  // Messages, not TypeError: jest's sandbox has its own TypeError, so errors thrown by V8 fail `toThrow(TypeError)`.
  const FROZEN = /read only|not extensible/;

  it('throws on mutation (test files run in strict mode)', () => {
    expect(() => {
      (loaded.config.subagents as { max_total_per_run: number }).max_total_per_run = 50;
    }).toThrow(FROZEN);
    expect(() => {
      (loaded.config as { default_model: string | null }).default_model = 'local';
    }).toThrow(FROZEN);
    expect(() => {
      (loaded.config.models as unknown[]).push({});
    }).toThrow(FROZEN);
    expect(() => {
      (loaded.config.subagents.agents as Record<string, unknown>)['bash'] = {};
    }).toThrow(FROZEN);
    expect(loaded.config.subagents.max_total_per_run).toBe(10);
  });

  it('does not freeze the schema defaults other parses receive', () => {
    loadConfig({ path: null, env: {}, cwd: FIXTURES });
    const fresh = AppConfigSchema.parse({});
    expect(Object.isFrozen(fresh.subagents.agents)).toBe(false);
    fresh.subagents.agents['bash'] = { timeout_seconds: 1, max_turns: null, model: null, skills: null, token_budget: null };
    expect(AppConfigSchema.parse({}).subagents.agents).toEqual({});
  });
});
