import * as fs from 'node:fs';
import * as os from 'node:os';
import * as nodePath from 'node:path';
import { LineCounter, parseDocument } from 'yaml';
import { ConfigError } from './config-error';
import { configErrorMap, issuesToProblems } from './issue-messages';
import { AppConfigSchema, type AppConfig } from './schema';

/** File looked for in the working directory when neither `--config` nor `DEERFLOW_CONFIG` is given. */
export const DEFAULT_CONFIG_FILE = 'config.yaml';
/** Environment variable naming the config file (second in the lookup order). */
export const CONFIG_PATH_ENV = 'DEERFLOW_CONFIG';

/**
 * Environment variables that override one config key each, applied after the file is validated
 * (and validated again with it). An empty variable counts as unset.
 */
export const ENV_OVERRIDES = [
  { env: 'TEMPORAL_ADDRESS', path: ['temporal', 'address'] },
  { env: 'TEMPORAL_NAMESPACE', path: ['temporal', 'namespace'] },
  { env: 'TEMPORAL_UI_URL', path: ['temporal', 'ui_url'] },
  { env: 'DATABASE_URL', path: ['store', 'postgres_url'] },
] as const;

/** A validated, frozen config snapshot and where it came from. */
export interface LoadedConfig {
  readonly config: AppConfig;
  /** Absolute path of the file read, or null when every setting is a default. */
  readonly path: string | null;
  /**
   * Folder relative paths in the config resolve against (scripted model scripts, `store.data_dir`):
   * the config file's folder, or the working directory when there is no file.
   */
  readonly dir: string;
}

/** Options of {@link resolveConfigPath}. */
export interface ResolveConfigPathOptions {
  /** Value of the `--config` option, if given. */
  readonly cliPath?: string;
  readonly env: NodeJS.ProcessEnv;
  readonly cwd: string;
}

/** Options of {@link loadConfig}. */
export interface LoadConfigOptions {
  /** File to read (relative paths resolve against `cwd`), or null for all defaults. */
  readonly path: string | null;
  /** @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default process.cwd() */
  readonly cwd?: string;
}

/**
 * Picks the config file: the `--config` value, else `DEERFLOW_CONFIG`, else `./config.yaml` if it
 * exists, else null (all defaults). Explicit paths are returned even when missing, so that
 * {@link loadConfig} reports them instead of silently falling back to defaults. Empty values count as
 * unset. Returns an absolute path.
 */
export function resolveConfigPath(opts: ResolveConfigPathOptions): string | null {
  const explicit = nonEmpty(opts.cliPath) ?? nonEmpty(opts.env[CONFIG_PATH_ENV]);
  if (explicit !== undefined) return nodePath.resolve(opts.cwd, explicit);
  const local = nodePath.resolve(opts.cwd, DEFAULT_CONFIG_FILE);
  return fs.existsSync(local) ? local : null;
}

/**
 * Reads, validates and freezes the config: YAML file (absent or empty = all defaults) → schema →
 * environment overrides ({@link ENV_OVERRIDES}) → `store.data_dir` made absolute against the config
 * folder → deep freeze.
 *
 * @throws {@link ConfigError} `unreadable_config` when the file cannot be read, `yaml_syntax` with line
 * and column for YAML errors, `invalid_config` listing every schema problem.
 */
export function loadConfig(opts: LoadConfigOptions): LoadedConfig {
  const cwd = opts.cwd ?? process.cwd();
  const env = opts.env ?? process.env;
  const path = opts.path === null ? null : nodePath.resolve(cwd, opts.path);
  const dir = path === null ? cwd : nodePath.dirname(path);

  const fromFile = path === null ? parseConfigText('', null) : parseConfigText(readConfigFile(path), path);
  const withEnv = applyEnvOverrides(fromFile, env, path);
  const config: AppConfig = {
    ...withEnv,
    store: { ...withEnv.store, data_dir: resolveFromConfigDir(dir, withEnv.store.data_dir) },
  };
  // Cloned first so freezing can never reach an object shared with anyone else (e.g. a schema default).
  return deepFreeze({ config: structuredClone(config), path, dir });
}

/**
 * Parses and validates config YAML text without touching the file system or the environment.
 * Empty text (or only comments) means all defaults. The result is not frozen and `store.data_dir` is
 * left as written.
 *
 * @param source file path used in error messages, or null.
 * @throws {@link ConfigError} `yaml_syntax` or `invalid_config`.
 */
export function parseConfigText(text: string, source: string | null): AppConfig {
  const raw = parseYaml(text, source);
  const result = AppConfigSchema.safeParse(raw ?? {}, { error: configErrorMap });
  if (!result.success) {
    throw new ConfigError({ code: 'invalid_config', problems: issuesToProblems(result.error.issues), path: source, cause: result.error });
  }
  return result.data;
}

/**
 * Resolves a path written in the config (a scripted model's `script`, `store.data_dir`) against the
 * config folder ({@link LoadedConfig.dir}); a leading `~/` means the home folder.
 */
export function resolveFromConfigDir(dir: string, value: string): string {
  // Shells expand `~` but YAML does not; without this, `~/.deerflow` would become a folder named `~`.
  if (value === '~' || value.startsWith('~/')) return nodePath.join(os.homedir(), value.slice(1));
  return nodePath.resolve(dir, value);
}

function readConfigFile(path: string): string {
  try {
    return fs.readFileSync(path, 'utf8');
  } catch (err) {
    throw new ConfigError({ code: 'unreadable_config', problems: [`cannot read file: ${errorText(err)}`], path, cause: err });
  }
}

function parseYaml(text: string, source: string | null): unknown {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false });
  // Warnings (an unresolved `!tag`, a collection used as a key) would otherwise load as surprising
  // strings, e.g. `!env DATABASE_URL` as the literal text "DATABASE_URL".
  const diagnostics = [...doc.errors, ...doc.warnings];
  const problems = diagnostics.map((d) => {
    const { line, col } = lineCounter.linePos(d.pos[0]);
    return `line ${line}, column ${col}: ${d.message.split('\n')[0] ?? d.message}`;
  });
  if (problems.length > 0) {
    throw new ConfigError({ code: 'yaml_syntax', problems, path: source, cause: diagnostics[0] });
  }
  try {
    return doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    // toJS throws on alias bombs (too many alias expansions), which is a YAML problem, not a bug.
    throw new ConfigError({ code: 'yaml_syntax', problems: [errorText(err)], path: source, cause: err });
  }
}

function applyEnvOverrides(config: AppConfig, env: NodeJS.ProcessEnv, source: string | null): AppConfig {
  const applied = ENV_OVERRIDES.filter((o) => nonEmpty(env[o.env]) !== undefined);
  if (applied.length === 0) return config;
  const merged: Record<string, unknown> = structuredClone(config);
  for (const o of applied) setIn(merged, o.path, env[o.env]);
  const result = AppConfigSchema.safeParse(merged, { error: configErrorMap });
  if (result.success) return result.data;
  const problems = result.error.issues.map((issue) => {
    const [line = ''] = issuesToProblems([issue]);
    const from = applied.find((o) => issue.path[0] === o.path[0] && issue.path[1] === o.path[1]);
    return from === undefined ? line : `${line} (from environment variable ${from.env})`;
  });
  throw new ConfigError({ code: 'invalid_config', problems, path: source, cause: result.error });
}

function setIn(target: Record<string, unknown>, path: readonly [string, string], value: unknown): void {
  const [section, key] = path;
  const current = target[section];
  const obj: Record<string, unknown> = typeof current === 'object' && current !== null ? { ...current } : {};
  obj[key] = value;
  target[section] = obj;
}

/** Message of a thrown value; not `instanceof Error`, which fails for errors from another realm (vm, jest). */
function errorText(err: unknown): string {
  if (typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string') return err.message;
  return String(err);
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value === '' ? undefined : value;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
