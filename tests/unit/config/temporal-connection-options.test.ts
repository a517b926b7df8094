import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { isConfigError, loadConfig, temporalConnectionOptions, type LoadedConfig } from '../../../src/config';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-connection-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

function configWith(temporal: Record<string, unknown>): LoadedConfig {
  writeFileSync(join(dir, 'config.yaml'), stringify({ temporal: { address: 'ns.acct.tmprl.cloud:7233', ...temporal } }));
  return loadConfig({ path: join(dir, 'config.yaml'), env: {} });
}

function problemOf(act: () => unknown): { code: string; problems: readonly string[] } {
  try {
    act();
  } catch (err) {
    if (isConfigError(err)) return { code: err.code, problems: err.problems };
    throw err;
  }
  throw new Error('expected a config error');
}

it('connects in plaintext by default', () => {
  expect(temporalConnectionOptions(configWith({}), {})).toEqual({ address: 'ns.acct.tmprl.cloud:7233', tls: false });
});

it('sends the API key from the named variable, over TLS', () => {
  const options = temporalConnectionOptions(configWith({ api_key_env: 'TEMPORAL_API_KEY' }), { TEMPORAL_API_KEY: 'secret-key' });
  expect(options).toEqual({ address: 'ns.acct.tmprl.cloud:7233', tls: {}, apiKey: 'secret-key' });
});

it('reads the mTLS pair and the CA relative to the config file and keeps the server name', () => {
  writeFileSync(join(dir, 'client.pem'), 'CERT');
  writeFileSync(join(dir, 'client.key'), 'KEY');
  writeFileSync(join(dir, 'ca.pem'), 'CA');
  const loaded = configWith({ tls: { client_cert_path: 'client.pem', client_key_path: './client.key', server_ca_cert_path: 'ca.pem', server_name: 'temporal.internal' } });
  const { tls } = temporalConnectionOptions(loaded, {});
  expect(tls).toEqual({
    serverNameOverride: 'temporal.internal',
    serverRootCACertificate: Buffer.from('CA'),
    clientCertPair: { crt: Buffer.from('CERT'), key: Buffer.from('KEY') },
  });
});

it('names the setting, never the secret, when the API key variable is unset or a file is missing', () => {
  expect(problemOf(() => temporalConnectionOptions(configWith({ api_key_env: 'TEMPORAL_API_KEY' }), { TEMPORAL_API_KEY: '' }))).toEqual({
    code: 'invalid_config',
    problems: ['temporal.api_key_env: environment variable TEMPORAL_API_KEY is not set'],
  });
  const missing = configWith({ tls: { client_cert_path: 'nope.pem', client_key_path: 'nope.key' } });
  expect(problemOf(() => temporalConnectionOptions(missing, {}))).toEqual({
    code: 'unreadable_config',
    problems: ['temporal.tls.client_cert_path: cannot read nope.pem (ENOENT)'],
  });
});

it('needs an address: the embedded dev server is reached without these options', () => {
  const loaded = loadConfig({ path: null, env: {}, cwd: dir });
  expect(problemOf(() => temporalConnectionOptions(loaded, {})).problems).toEqual(['temporal.address: is required to connect to a cluster']);
});
