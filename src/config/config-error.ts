/** Why a config could not be loaded. */
export const CONFIG_ERROR_CODES = ['invalid_config', 'unreadable_config', 'yaml_syntax'] as const;
/**
 * - `invalid_config`: the YAML parsed but the values break the schema (or an environment override does).
 * - `unreadable_config`: the file could not be read (missing, a folder, no permission).
 * - `yaml_syntax`: the file is not valid YAML.
 */
export type ConfigErrorCode = (typeof CONFIG_ERROR_CODES)[number];

/** Constructor options of {@link ConfigError}. */
export interface ConfigErrorOptions {
  readonly code: ConfigErrorCode;
  /** One line per problem, e.g. `subagents.max_total_per_run: must be <= 50`. */
  readonly problems: readonly string[];
  /** Absolute path of the config file, or null when no file was used (defaults + environment). */
  readonly path: string | null;
  readonly cause?: unknown;
}

/**
 * The one error `loadConfig` throws. Every problem found is listed (not just the first), one line
 * each; `message` is the full {@link formatConfigError} text so an uncaught error is readable as is.
 * Check with {@link isConfigError}, not `instanceof`.
 */
export class ConfigError extends Error {
  override readonly name = 'ConfigError' as const;
  readonly code: ConfigErrorCode;
  readonly problems: readonly string[];
  readonly path: string | null;

  constructor(options: ConfigErrorOptions) {
    super(formatProblems(options.path, options.problems), options.cause === undefined ? undefined : { cause: options.cause });
    this.code = options.code;
    this.problems = Object.freeze([...options.problems]);
    this.path = options.path;
  }
}

/** Brand check for {@link ConfigError}; unlike `instanceof` it also holds across module copies and realms. */
export function isConfigError(value: unknown): value is ConfigError {
  if (typeof value !== 'object' || value === null) return false;
  const candidate = value as { name?: unknown; code?: unknown; problems?: unknown };
  return (
    candidate.name === 'ConfigError' &&
    typeof candidate.code === 'string' &&
    (CONFIG_ERROR_CODES as readonly string[]).includes(candidate.code) &&
    Array.isArray(candidate.problems)
  );
}

/**
 * Renders a config error for humans: a first line `Invalid config <file>:` then one indented line per
 * problem.
 */
export function formatConfigError(err: ConfigError): string {
  return formatProblems(err.path, err.problems);
}

function formatProblems(path: string | null, problems: readonly string[]): string {
  const header = `Invalid config ${path ?? '(no config file)'}:`;
  return [header, ...problems.map((p) => `  ${p}`)].join('\n');
}
