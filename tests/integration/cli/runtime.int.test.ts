import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { startRuntime, type Runtime } from '../../../src/cli/runtime';
import { loadConfig } from '../../../src/config';
import type { LeadRunState } from '../../../src/contracts';
import { startDevServer, type DevServer } from '../../../src/devserver';

let dir: string;
let server: DevServer;
const open: Runtime[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-runtime-'));
  writeFileSync(join(dir, 'scenario.yaml'), stringify({ lead: [{ content: 'hello' }] }));
  writeFileSync(
    join(dir, 'config.yaml'),
    stringify({ models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }], store: { data_dir: './data' }, worker: { shutdown_grace_seconds: 0 } }),
  );
  server = await startDevServer();
}, 60_000);

afterAll(async () => {
  for (const runtime of open.reverse()) await runtime.stop();
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function runtimeOnServer(withWorkers: boolean): Promise<Runtime> {
  const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: { TEMPORAL_ADDRESS: server.address } });
  const runtime = await startRuntime({ loaded, withWorkers, log: () => undefined });
  open.push(runtime);
  return runtime;
}

test('a process that runs workers starts its runs eagerly on them; a client-only process starts them the ordinary way', async () => {
  const workers = await runtimeOnServer(true);
  const eager = await workers.deerflow.startRun({ message: 'hi', userId: 'u' });
  expect(eager.handle.eagerlyStarted).toBe(true);
  expect(((await eager.handle.result()) as LeadRunState).status).toBe('completed');

  // No workers of its own: the first process's workers run what it starts.
  const clientOnly = await runtimeOnServer(false);
  const ordinary = await clientOnly.deerflow.startRun({ message: 'hi', userId: 'u' });
  expect(ordinary.handle.eagerlyStarted).toBe(false);
  expect(((await ordinary.handle.result()) as LeadRunState).status).toBe('completed');
}, 120_000);
