import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import { findProjectRoot } from './project-root';

/** Environment variable naming an explicit `temporal` CLI binary; it wins over everything else. */
export const TEMPORAL_CLI_PATH_ENV = 'TEMPORAL_CLI_PATH';

/** Where `scripts/install-temporal.js` puts the CLI, relative to the project root. */
export const PROJECT_TEMPORAL_CLI_RELATIVE_PATH =
  process.platform === 'win32'
    ? path.join('.tools', 'temporal-venv', 'Scripts', 'temporal.exe')
    : path.join('.tools', 'temporal-venv', 'bin', 'temporal');

/** Where a resolved CLI came from, in order of precedence. */
export type TemporalCliSource = 'env' | 'path' | 'project' | 'sdk-download';

/**
 * A located `temporal` CLI binary, or `{ path: null, source: 'sdk-download' }` when none was found
 * locally and the Temporal SDK should download (and cache) one itself, which needs internet access.
 */
export type ResolvedCli =
  | { readonly path: string; readonly source: 'env' | 'path' | 'project' }
  | { readonly path: null; readonly source: 'sdk-download' };

/** Inputs of {@link resolveTemporalCli}; injectable so the lookup is testable without touching the real machine. */
export interface ResolveTemporalCliOptions {
  /** Defaults to `process.env`. */
  readonly env?: NodeJS.ProcessEnv;
  /** Defaults to the folder holding this project's `package.json`. */
  readonly projectRoot?: string;
}

/**
 * Locates the `temporal` CLI: `$TEMPORAL_CLI_PATH`, then `temporal` on `PATH`, then the project-local
 * install (`npm run temporal:install`), else falls back to the SDK download.
 *
 * @throws Error when `TEMPORAL_CLI_PATH` is set but does not name an existing file.
 */
export function resolveTemporalCli(opts: ResolveTemporalCliOptions = {}): ResolvedCli {
  const env = opts.env ?? process.env;
  const fromEnv = env[TEMPORAL_CLI_PATH_ENV];
  if (fromEnv !== undefined && fromEnv !== '') return { path: requireFile(fromEnv), source: 'env' };

  const onPath = findOnPath('temporal', env);
  if (onPath !== null) return { path: onPath, source: 'path' };

  const projectCli = path.join(opts.projectRoot ?? findProjectRoot(), PROJECT_TEMPORAL_CLI_RELATIVE_PATH);
  if (isExecutableFile(projectCli)) return { path: projectCli, source: 'project' };

  return { path: null, source: 'sdk-download' };
}

function requireFile(cliPath: string): string {
  const absolute = path.resolve(cliPath);
  if (!isFile(absolute)) {
    throw new Error(
      `${TEMPORAL_CLI_PATH_ENV} is set to "${cliPath}", but no file exists there. ` +
        `Point it at a temporal CLI binary, or unset it to use \`temporal\` on PATH or \`npm run temporal:install\`.`,
    );
  }
  return absolute;
}

/** The first executable `name` in the PATH entries of `env`, like `which`. */
function findOnPath(name: string, env: NodeJS.ProcessEnv): string | null {
  // Windows spells the variable `Path` and finds executables by extension, not by mode bits.
  const pathValue = env.PATH ?? env.Path ?? '';
  const extensions = process.platform === 'win32' ? (env.PATHEXT ?? '.EXE;.CMD;.BAT').split(';') : [''];
  for (const dir of pathValue.split(path.delimiter)) {
    if (dir === '') continue;
    for (const ext of extensions) {
      const candidate = path.resolve(dir, name + ext.toLowerCase());
      if (isExecutableFile(candidate)) return candidate;
    }
  }
  return null;
}

function isFile(filePath: string): boolean {
  try {
    return statSync(filePath).isFile();
  } catch {
    return false;
  }
}

function isExecutableFile(filePath: string): boolean {
  if (!isFile(filePath)) return false;
  try {
    accessSync(filePath, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
