import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { resolveTemporalCli, TEMPORAL_CLI_PATH_ENV } from '../../../src/devserver';

const ROOT = join(__dirname, '..', '..', '..');
const ENTRIES = ['client', 'contracts', 'worker', 'testing'] as const;

interface ExportTarget {
  readonly types: string;
  readonly default: string;
}

/**
 * The package as a user gets it: `npm run build`'s compiler settings, written to a scratch copy of the
 * package (never to the repo's dist/, which bin/deerflow.js would then run instead of the sources),
 * with the repo's package.json and node_modules. Imports go through the package's own `exports`.
 */
let dir: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-package-'));
  const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const build = spawnSync(process.execPath, [tsc, '-p', join(ROOT, 'tsconfig.build.json'), '--outDir', join(dir, 'dist')], { encoding: 'utf8', timeout: 180_000 });
  if (build.status !== 0) throw new Error(`the build failed (${build.status ?? build.signal}):\n${build.stdout}${build.stderr}`);
  copyFileSync(join(ROOT, 'package.json'), join(dir, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
}, 200_000);

afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

function run(command: string, args: readonly string[], timeoutMs: number, env: NodeJS.ProcessEnv = {}) {
  const result = spawnSync(command, [...args], { cwd: dir, encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${args.join(' ')} failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`);
  return result.stdout;
}

test('package.json exports client, contracts, worker and testing with built type declarations', () => {
  const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { main: string; types: string; exports: Record<string, ExportTarget | string> };
  for (const entry of ENTRIES) {
    const target = pkg.exports[`./${entry}`] as ExportTarget;
    expect(existsSync(join(dir, target.types))).toBe(true);
    expect(existsSync(join(dir, target.default))).toBe(true);
  }
  expect(existsSync(join(dir, pkg.main))).toBe(true);
  expect(existsSync(join(dir, pkg.types))).toBe(true);
});

test('a TypeScript user type-checks against the entries through the exports map', () => {
  writeFileSync(
    join(dir, 'consumer.ts'),
    [
      "import { Client } from '@temporalio/client';",
      "import { buildBatch, buildLeadRunInput, leadRunStartOptions, batchStartOptions, leadRunWorkflowId } from 'deerflow-temporal/client';",
      "import { WORKFLOW_TASK_QUEUE, WORKFLOW_TYPES, type LeadRunInput, type LeadRunState } from 'deerflow-temporal/contracts';",
      "import { createWorkers, loadConfig, openConfiguredStores, openStores } from 'deerflow-temporal/worker';",
      "import { createTestEnvironment, type DeerflowTestEnvironment } from 'deerflow-temporal/testing';",
      'export async function start(client: Client, input: LeadRunInput): Promise<LeadRunState> {',
      '  const handle = await client.workflow.start(WORKFLOW_TYPES.leadRun, leadRunStartOptions(input));',
      '  return handle.result();',
      '}',
      'export const used = [buildBatch, buildLeadRunInput, batchStartOptions, leadRunWorkflowId, WORKFLOW_TASK_QUEUE, createWorkers, loadConfig, openConfiguredStores, openStores, createTestEnvironment];',
      'export type Env = DeerflowTestEnvironment;',
      '',
    ].join('\n'),
  );
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { module: 'node16', moduleResolution: 'node16', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, files: ['consumer.ts'] }),
  );
  run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], 120_000);
});

test('createTestEnvironment from the built testing entry runs a lead run started with a plain Temporal client, and starts its own runs eagerly', () => {
  writeFileSync(join(dir, 'scenario.yaml'), stringify({ lead: [{ content: 'hello from the package' }] }));
  writeFileSync(
    join(dir, 'config.yaml'),
    stringify({ models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }], store: { data_dir: './data' }, worker: { shutdown_grace_seconds: 0 } }),
  );
  writeFileSync(
    join(dir, 'consumer.js'),
    `
const { buildLeadRunInput, leadRunStartOptions } = require('deerflow-temporal/client');
const { WORKFLOW_TYPES } = require('deerflow-temporal/contracts');
const { createTestEnvironment } = require('deerflow-temporal/testing');
(async () => {
  const env = await createTestEnvironment({ config: 'config.yaml' });
  try {
    const input = buildLeadRunInput(env.loaded.config, { message: 'hi', threadId: 'pkg-thread', runId: 'run-1' });
    const handle = await env.client.workflow.start(WORKFLOW_TYPES.leadRun, leadRunStartOptions(input));
    const state = await handle.result();
    // Its DeerFlowClient shares the workers' connection: the run's first workflow task goes to them at start.
    const own = await env.deerflow.startRun({ message: 'hi', threadId: 'pkg-thread-2' });
    const ownState = await own.handle.result();
    process.stdout.write(JSON.stringify({ status: state.status, brief: state.finalMessageBrief, eager: own.handle.eagerlyStarted, ownStatus: ownState.status }));
  } finally {
    await env.teardown();
  }
})().catch((err) => { console.error(err); process.exit(1); });
`,
  );
  const cli = resolveTemporalCli().path;
  if (cli === null) throw new Error('no temporal CLI for the dev server: run `npm run temporal:install`');
  const out = run(process.execPath, ['consumer.js'], 120_000, { [TEMPORAL_CLI_PATH_ENV]: cli, TEMPORAL_ADDRESS: '', DEERFLOW_CONFIG: '' });
  expect(JSON.parse(out)).toEqual({ status: 'completed', brief: 'hello from the package', eager: true, ownStatus: 'completed' });
}, 150_000);
