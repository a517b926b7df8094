import { spawn } from 'node:child_process';
import { join } from 'node:path';

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

const BIN = join(__dirname, '..', '..', 'bin', 'deerflow.js');

/** Options of {@link runCli}. */
export interface RunCliOptions {
  readonly cwd: string;
  readonly env?: NodeJS.ProcessEnv;
  readonly timeoutMs?: number;
  /**
   * `TEMPORAL_ADDRESS` for the command (a server the test started, with workers of its own);
   * without it the variable is removed and the command starts its embedded dev server.
   */
  readonly temporalAddress?: string;
  /** Sends the command SIGINT (as Ctrl-C would) once its stderr so far satisfies this. */
  readonly interruptWhen?: (stderr: string) => boolean;
}

/** Runs the real `deerflow` command in a child process (embedded server unless `temporalAddress`). */
export function runCli(args: readonly string[], options: RunCliOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env = { ...process.env, ...options.env };
    delete env.TEMPORAL_ADDRESS;
    delete env.DEERFLOW_CONFIG;
    if (options.temporalAddress !== undefined) env.TEMPORAL_ADDRESS = options.temporalAddress;
    const child = spawn(process.execPath, [BIN, ...args], { cwd: options.cwd, env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    let interrupted = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!interrupted && options.interruptWhen?.(stderr)) {
        interrupted = true;
        child.kill('SIGINT');
      }
    });
    const timer = setTimeout(() => {
      child.kill('SIGTERM');
      reject(new Error(`deerflow ${args.join(' ')} timed out\nstdout:\n${stdout}\nstderr:\n${stderr}`));
    }, options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
