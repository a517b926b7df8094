import { formatConfigError, isConfigError, loadConfig, resolveConfigPath, type LoadedConfig } from '../config';

/** Exit code for invalid configuration or arguments. */
export const EXIT_USAGE = 2;

/** Thrown by commands to end the process with a message and an exit code. */
export class CliExit extends Error {
  override readonly name = 'CliExit';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/**
 * Loads the config for a command (`--config`, `DEERFLOW_CONFIG`, `./config.yaml`).
 * @throws CliExit with one line per problem when the config is invalid.
 */
export function loadCliConfig(cliPath: string | undefined): LoadedConfig {
  try {
    return loadConfig({ path: resolveConfigPath({ cliPath, env: process.env, cwd: process.cwd() }) });
  } catch (err) {
    if (isConfigError(err)) throw new CliExit(formatConfigError(err), EXIT_USAGE);
    throw err;
  }
}
