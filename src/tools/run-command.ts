import { spawn } from 'node:child_process';

import { HeadTailBuffer } from './output-cap';

/** Inputs of {@link runShellCommand}. */
export interface RunShellCommandOptions {
  command: string;
  cwd: string;
  env: NodeJS.ProcessEnv;
  timeoutMs: number;
  /** Chars kept of the combined output (head and tail); rendering happens in the caller. */
  outputLimit: number;
  signal?: AbortSignal | undefined;
}

/** How a command ended; `output` holds stdout and stderr interleaved in arrival order. */
export interface RunShellCommandResult {
  output: HeadTailBuffer;
  exitCode: number | null;
  /** Signal that ended bash itself, if any. */
  exitSignal: NodeJS.Signals | null;
  timedOut: boolean;
  aborted: boolean;
}

/**
 * After bash exits, background jobs it started (`server &`) can hold the pipes open; we stop
 * waiting for them after this grace instead of hanging until the timeout (and then kill them).
 */
const DRAIN_GRACE_MS = 250;

/**
 * Runs `/bin/bash -c command` in its own process group. When the call ends (bash exited and its
 * output drained or the drain grace passed, timeout, or abort) the whole group gets SIGKILL, so
 * background jobs of the command (`sleep 30 &`, `some-server &`) never outlive the call (except
 * ones that started a new session or process group).
 * Rejects only when bash cannot be started.
 */
export function runShellCommand(opts: RunShellCommandOptions): Promise<RunShellCommandResult> {
  return new Promise((resolve, reject) => {
    const output = new HeadTailBuffer(opts.outputLimit);
    const child = spawn('/bin/bash', ['-c', opts.command], {
      cwd: opts.cwd,
      env: opts.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let timedOut = false;
    let aborted = false;
    let exitCode: number | null = null;
    let exitSignal: NodeJS.Signals | null = null;
    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;

    const killGroup = (): void => {
      if (child.pid === undefined) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // ESRCH: the group is already gone.
      }
    };
    const onAbort = (): void => {
      aborted = true;
      killGroup();
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, opts.timeoutMs);

    const finish = (): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (drainTimer !== undefined) clearTimeout(drainTimer);
      opts.signal?.removeEventListener('abort', onAbort);
      // bash has exited here; whatever is left in its group are background jobs, which must not
      // keep running (and holding resources) after the tool call returned.
      killGroup();
      child.stdout?.destroy();
      child.stderr?.destroy();
      resolve({ output, exitCode, exitSignal, timedOut, aborted });
    };

    for (const stream of [child.stdout, child.stderr]) {
      stream?.setEncoding('utf8');
      stream?.on('data', (chunk: string) => output.push(chunk));
    }
    child.on('error', (err) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      reject(err);
    });
    child.on('exit', (code, sig) => {
      exitCode = code;
      exitSignal = sig;
      drainTimer = setTimeout(finish, DRAIN_GRACE_MS);
    });
    child.on('close', finish);

    if (opts.signal?.aborted) onAbort();
    else opts.signal?.addEventListener('abort', onAbort, { once: true });
  });
}
