import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

const BIN = join(__dirname, '..', '..', 'bin', 'deerflow.js');

/**
 * Starts `deerflow worker --queues subagents` as a separate process on `address`, resolved once it
 * serves: the process a fault test kills with SIGKILL.
 */
export function startSubagentWorkerProcess(config: string, address: string): Promise<ChildProcess> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [BIN, 'worker', '--queues', 'subagents', '--config', config], {
      env: { ...process.env, TEMPORAL_ADDRESS: address, DEERFLOW_CONFIG: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    proc.stderr?.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (stderr.includes('deerflow worker on')) resolve(proc);
    });
    proc.on('exit', (code) => reject(new Error(`worker exited early (${code}): ${stderr}`)));
  });
}
