import * as fs from 'node:fs';
import type { TLSConfig } from '@temporalio/client';
import { ConfigError } from './config-error';
import { resolveFromConfigDir, type LoadedConfig } from './load-config';

/**
 * What both a client `Connection` and a worker `NativeConnection` take to reach the configured
 * cluster: the address, TLS and the API key.
 */
export interface TemporalConnectionOptions {
  readonly address: string;
  /** false = plaintext; `{}` = TLS with the system's trusted roots. */
  readonly tls: TLSConfig | false;
  readonly apiKey?: string;
}

/**
 * Connection options for the cluster at `temporal.address`: the `temporal.tls` files read (paths
 * relative to the config file) and the API key read from the variable `temporal.api_key_env`. An API
 * key turns TLS on, since Temporal Cloud accepts keys only over TLS.
 *
 * @throws ConfigError `invalid_config` when no address is configured or the API key variable is
 * unset; `unreadable_config` when a certificate or key file cannot be read. Messages name the
 * setting, never a secret.
 */
export function temporalConnectionOptions(loaded: LoadedConfig, env: NodeJS.ProcessEnv = process.env): TemporalConnectionOptions {
  const { temporal } = loaded.config;
  if (temporal.address === null) throw configProblem(loaded, 'invalid_config', 'temporal.address: is required to connect to a cluster');
  const apiKey = temporal.api_key_env === null ? undefined : env[temporal.api_key_env];
  if (temporal.api_key_env !== null && !apiKey) {
    throw configProblem(loaded, 'invalid_config', `temporal.api_key_env: environment variable ${temporal.api_key_env} is not set`);
  }
  const tls = temporal.tls === null ? (apiKey === undefined ? false : {}) : tlsConfig(loaded, temporal.tls);
  return { address: temporal.address, tls, ...(apiKey === undefined ? {} : { apiKey }) };
}

function tlsConfig(loaded: LoadedConfig, tls: NonNullable<LoadedConfig['config']['temporal']['tls']>): TLSConfig {
  const read = (field: string, path: string): Buffer => {
    try {
      return fs.readFileSync(resolveFromConfigDir(loaded.dir, path));
    } catch (err) {
      // Duck-typed: fs errors from another realm (vm, jest) are not `instanceof Error` here.
      const reason = typeof err === 'object' && err !== null && 'code' in err ? String(err.code) : 'unreadable';
      throw configProblem(loaded, 'unreadable_config', `temporal.tls.${field}: cannot read ${path} (${reason})`, err);
    }
  };
  return {
    ...(tls.server_name === null ? {} : { serverNameOverride: tls.server_name }),
    ...(tls.server_ca_cert_path === null ? {} : { serverRootCACertificate: read('server_ca_cert_path', tls.server_ca_cert_path) }),
    ...(tls.client_cert_path === null || tls.client_key_path === null
      ? {}
      : { clientCertPair: { crt: read('client_cert_path', tls.client_cert_path), key: read('client_key_path', tls.client_key_path) } }),
  };
}

function configProblem(loaded: LoadedConfig, code: 'invalid_config' | 'unreadable_config', problem: string, cause?: unknown): ConfigError {
  return new ConfigError({ code, problems: [problem], path: loaded.path, cause });
}
