import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { loadConfig, resolveFromConfigDir, type LoadedConfig } from '../../../src/config';

const ROOT = join(__dirname, '..', '..', '..');
/** Where the Dockerfile copies the project. */
const IMAGE_ROOT = '/app';

interface ComposeService {
  readonly build?: string;
  readonly command?: readonly string[];
  readonly environment?: Record<string, string>;
  readonly volumes?: readonly string[];
  readonly expose?: readonly string[];
  readonly ports?: readonly string[];
  readonly profiles?: readonly string[];
}

const compose = parse(readFileSync(join(ROOT, 'docker-compose.temporal.yml'), 'utf8'), { merge: true }) as { services: Record<string, ComposeService> };
const worker = compose.services['deerflow-worker']!;
const gateway = compose.services['deerflow-gateway']!;

/** The config a deerflow service runs with: its DEERFLOW_CONFIG file, under the environment compose sets. */
function serviceConfig(service: ComposeService): LoadedConfig['config'] {
  return serviceLoaded(service).config;
}

function serviceLoaded(service: ComposeService): LoadedConfig {
  const env = service.environment ?? {};
  const file = env.DEERFLOW_CONFIG ?? '';
  expect(file.startsWith(`${IMAGE_ROOT}/`)).toBe(true);
  return loadConfig({ path: join(ROOT, file.slice(IMAGE_ROOT.length + 1)), env: { ...env, DEERFLOW_GATEWAY_TOKEN: 'token' } });
}

test('the worker service runs `npm run worker` and the gateway `deerflow serve`, both built from the Dockerfile', () => {
  const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(worker.command).toEqual(['npm', 'run', 'worker']);
  expect(scripts.worker).toContain('worker.ts');
  expect(gateway.command).toEqual(['node', 'bin/deerflow.js', 'serve']);
  for (const service of [worker, gateway]) {
    expect(service.build).toBe('.');
    expect(service.profiles).toEqual(['deerflow']);
  }
  expect(existsSync(join(ROOT, 'Dockerfile'))).toBe(true);
  // The bundled model's scenario ships in the image too.
  const loaded = serviceLoaded(worker);
  const scenarios = loaded.config.models.flatMap((m) => (m.script === undefined ? [] : [resolveFromConfigDir(loaded.dir, m.script)]));
  expect(scenarios.length).toBeGreaterThan(0);
  for (const script of scenarios) expect(existsSync(script)).toBe(true);
});

test('both deerflow services use the compose cluster and one PostgreSQL database, which the file creates', () => {
  for (const service of [worker, gateway]) {
    const config = serviceConfig(service);
    expect(config.temporal.address).toBe('temporal:7233');
    const store = new URL(config.store.postgres_url ?? '');
    expect(store.hostname).toBe('postgresql');
    expect(compose.services).toHaveProperty(store.hostname);
    expect(compose.services['create-deerflow-database']?.command?.join(' ')).toContain(`CREATE DATABASE ${store.pathname.slice(1)}`);
    // Thread workspaces live on a volume every deerflow container shares.
    expect(service.volumes).toContainEqual(`deerflow-data:${config.store.data_dir}`);
  }
});

test('the gateway listens where the port is published, with a token set from the environment; the worker exposes its metrics port', () => {
  const config = serviceConfig(gateway);
  expect(gateway.ports).toEqual([`127.0.0.1:${config.gateway.port}:${config.gateway.port}`]);
  expect(config.gateway.host).toBe('0.0.0.0');
  expect(config.gateway.tokens.map((t) => t.token_env).every((name) => name in (gateway.environment ?? {}))).toBe(true);
  const bind = serviceConfig(worker).telemetry.prometheus_bind ?? '';
  expect(worker.expose).toEqual([bind.slice(bind.lastIndexOf(':') + 1)]);
});
