import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { startRuntime, type Runtime } from './runtime';

/**
 * Runs `act` on the configured cluster, without workers of its own. A run lives on the cluster that
 * runs it, so commands that act on or read live runs need `TEMPORAL_ADDRESS` (another process's
 * embedded server is out of reach).
 * @throws CliExit (usage) when no cluster address is configured.
 */
export async function withClusterRuntime(command: string, configPath: string | undefined, act: (runtime: Runtime) => Promise<void>): Promise<void> {
  const loaded = loadCliConfig(configPath);
  if (loaded.config.temporal.address === null) {
    throw new CliExit(`${command} needs TEMPORAL_ADDRESS (or temporal.address): the run lives on the cluster that runs it`, EXIT_USAGE);
  }
  const runtime = await startRuntime({ loaded, withWorkers: false, log: (line) => process.stderr.write(`${line}\n`) });
  try {
    await act(runtime);
  } finally {
    await runtime.stop();
  }
}
