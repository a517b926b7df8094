import { formatConfigError, isConfigError, temporalConnectionOptions, type LoadedConfig, type TemporalConnectionOptions } from '../config';
import { CliExit, EXIT_USAGE } from './load-cli-config';

/**
 * How every CLI process reaches the configured cluster: address, TLS and API key, the same for
 * the client and the worker connection.
 * @throws CliExit (usage) when the TLS files or the API key variable named in the config are missing.
 */
export function clusterConnectionOptions(loaded: LoadedConfig): TemporalConnectionOptions {
  try {
    return temporalConnectionOptions(loaded);
  } catch (err) {
    if (isConfigError(err)) throw new CliExit(formatConfigError(err), EXIT_USAGE);
    throw err;
  }
}
