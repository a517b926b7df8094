import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { stringify } from 'yaml';
import { RunJsonOutputSchema } from '../../src/contracts';
import { pickFreePorts } from '../../src/devserver/free-port';
import { createTestEnv } from '../support/temporal-env';
import { runCli } from './run-cli';

// The worker runtime is installed once per process, so the worker under test runs in its own
// process (`deerflow worker`), against a dev server without workers of its own.
const BIN = join(__dirname, '..', '..', 'bin', 'deerflow.js');
let env: TestWorkflowEnvironment;
let dir: string;

beforeAll(async () => {
  env = await createTestEnv();
  dir = mkdtempSync(join(tmpdir(), 'deerflow-telemetry-'));
}, 60_000);

afterAll(async () => {
  await env?.teardown();
  rmSync(dir, { recursive: true, force: true });
});

const scenario = {
  lead: [
    { tool_calls: [{ name: 'task', args: { description: 'Count', prompt: 'Alpha: count with bash', subagent_type: 'general-purpose' } }] },
    { content: 'Counted.' },
  ],
  subagents: [{ match: 'Alpha', turns: [{ tool_calls: [{ name: 'bash', args: { command: 'echo counted' } }] }, { content: 'Counted [r1 bash]' }] }],
};

interface WorkerProcess {
  readonly proc: ChildProcess;
  stderr(): string;
}

function startWorker(config: string): Promise<WorkerProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, 'worker', '--config', config], {
      env: { ...process.env, TEMPORAL_ADDRESS: env.address, DEERFLOW_CONFIG: '', DEERFLOW_LOG_LEVEL: 'DEBUG' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('deerflow worker on')) resolve({ proc, stderr: () => stderr });
    });
    proc.on('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
}

function stopWorker(worker: WorkerProcess): Promise<number | null> {
  return new Promise((resolve) => {
    worker.proc.removeAllListeners('exit');
    worker.proc.on('exit', (code) => resolve(code));
    worker.proc.kill('SIGTERM');
  });
}

test('deerflow worker serves the SDK metrics for Prometheus and logs JSON lines carrying the thread, run and task ids', async () => {
  const [metricsPort] = await pickFreePorts(1);
  writeFileSync(join(dir, 'scenario.yaml'), stringify(scenario));
  const config = join(dir, 'config.yaml');
  writeFileSync(
    config,
    stringify({
      models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
      default_model: 'scripted',
      sandbox: { allow_host_bash: true },
      worker: { shutdown_grace_seconds: 0 },
      telemetry: { prometheus_bind: `127.0.0.1:${metricsPort}`, log_format: 'json', service_name: 'deerflow-e2e' },
    }),
  );
  const worker = await startWorker(config);
  let exitCode: number | null;
  try {
    const run = await runCli(['run', 'count', '--config', config, '--thread', 'thread-json', '--json'], {
      cwd: dir,
      temporalAddress: env.address,
      env: { TEMPORAL_NAMESPACE: env.namespace ?? 'default' },
    });
    expect(run.stderr).not.toMatch(/deerflow: /);
    const report = RunJsonOutputSchema.parse(JSON.parse(run.stdout));
    expect(report.status).toBe('completed');

    const metrics = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    expect(metrics).toMatch(/^temporal_activity_execution_latency\w*\{[^}]*activity_type="runSubagent"/m);
    expect(metrics).toMatch(/^temporal_workflow_completed\{[^}]*workflow_type="leadRunWorkflow"/m);
    expect(metrics).toContain('service_name="temporal-core-sdk"');

    exitCode = await stopWorker(worker);
    const lines = worker
      .stderr()
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    const subagentDone = lines.find((l) => l.msg === 'Activity completed' && l.activityType === 'runSubagent');
    expect(subagentDone).toMatchObject({
      level: 'debug',
      service: 'deerflow-e2e',
      thread_id: 'thread-json',
      run_id: report.run_id,
      task_id: report.tasks[0]?.task_id,
    });
    expect(typeof subagentDone?.time).toBe('string');
    const leadStep = lines.find((l) => l.msg === 'Activity completed' && l.activityType === 'leadModelStep');
    expect(leadStep).toMatchObject({ thread_id: 'thread-json', run_id: report.run_id });
  } finally {
    if (worker.proc.exitCode === null) await stopWorker(worker);
  }
  expect(exitCode).toBe(0);
});
