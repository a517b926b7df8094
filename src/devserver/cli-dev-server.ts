import { spawn, type ChildProcess } from 'node:child_process';
import { tieChildToParent } from './child-lifetime';
import type { DevServer, DevServerSettings } from './dev-server';
import { dynamicConfigFlags } from './dynamic-config-flags';
import { hostPort } from './host-address';
import { OutputTail } from './output-tail';
import { searchAttributeFlags } from './search-attribute-flags';
import { waitUntilReady } from './wait-until-ready';

const OUTPUT_TAIL_LINES = 40;
const STOP_GRACE_MS = 5_000;
const OUTPUT_DRAIN_MS = 500;

/** Arguments for `temporal server start-dev` (flags checked against CLI 1.9.1). */
export function startDevArgs(settings: DevServerSettings): string[] {
  const args = [
    'server',
    'start-dev',
    '--ip',
    settings.ip,
    '--port',
    String(settings.port),
    '--ui-port',
    String(settings.uiPort),
    '--metrics-port',
    String(settings.metricsPort),
    '--namespace',
    settings.namespace,
    '--log-level',
    'warn',
  ];
  if (settings.dbFilename !== undefined) args.push('--db-filename', settings.dbFilename);
  return [...args, ...searchAttributeFlags(settings.searchAttributes), ...dynamicConfigFlags()];
}

/** Spawns `<cliPath> server start-dev ...` and waits until it answers; see `startDevServer`. */
export async function startCliDevServer(cliPath: string, settings: DevServerSettings): Promise<DevServer> {
  const args = startDevArgs(settings);
  const child = spawn(cliPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  const tail = new OutputTail(OUTPUT_TAIL_LINES, settings.log);
  const outputClosed = captureOutput(child, tail);
  const exited = exitOf(child);
  const untie = tieChildToParent(child);
  const stop = once(() => {
    tail.stopForwarding();
    return terminate(child, exited).finally(untie);
  });

  const address = hostPort(settings.host, settings.port);
  const uiUrl = `http://${hostPort(settings.host, settings.uiPort)}`;
  const metricsUrl = `http://${hostPort(settings.host, settings.metricsPort)}/metrics`;
  try {
    const failed = failureSignal(child, cliPath);
    await waitUntilReady(
      { address, namespace: settings.namespace, searchAttributeNames: settings.searchAttributes.map((a) => a.name), uiUrl },
      { timeoutMs: settings.startTimeoutMs, signal: failed },
    );
  } catch (error) {
    await stop();
    await Promise.race([outputClosed, delay(OUTPUT_DRAIN_MS)]);
    tail.end();
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`${reason}\nCommand: ${cliPath} ${args.join(' ')}\nServer output (last lines):\n${tail.text()}`);
  }
  return { address, uiUrl, metricsUrl, namespace: settings.namespace, pid: child.pid ?? null, stop };
}

function captureOutput(child: ChildProcess, tail: OutputTail): Promise<void> {
  child.stdout?.on('data', (chunk: Buffer) => tail.push(chunk));
  child.stderr?.on('data', (chunk: Buffer) => tail.push(chunk));
  return new Promise((resolve) => child.once('close', () => resolve()));
}

/** Resolves when the process has exited, or at once if it never started. */
function exitOf(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.once('error', () => {
      if (child.pid === undefined) resolve();
    });
  });
}

/** Aborted with a descriptive reason when the process fails to start or exits before it is ready. */
function failureSignal(child: ChildProcess, cliPath: string): AbortSignal {
  const controller = new AbortController();
  child.once('error', (error) => controller.abort(new Error(`Could not run ${cliPath}: ${error.message}`)));
  child.once('exit', (code, signal) =>
    controller.abort(
      new Error(`Temporal dev server exited before it was ready (${signal !== null ? `signal ${signal}` : `exit code ${code}`})`),
    ),
  );
  return controller.signal;
}

/** SIGTERM, then SIGKILL after a grace period; only ever signals the child we spawned. */
async function terminate(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const timedOut = await Promise.race([exited.then(() => false), delay(STOP_GRACE_MS).then(() => true)]);
  if (timedOut) {
    child.kill('SIGKILL');
    await exited;
  }
}

function once(fn: () => Promise<void>): () => Promise<void> {
  let result: Promise<void> | undefined;
  return () => (result ??= fn());
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
