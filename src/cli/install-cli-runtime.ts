import type { TelemetryConfig } from '../config';
import { installWorkerRuntime, logLevelFromEnv } from '../worker/install-runtime';
import { CliExit, loadCliConfig } from './load-cli-config';

/** The command whose process serves the Prometheus metrics endpoint: the long-lived worker. */
export const METRICS_COMMAND = 'worker';

/**
 * Installs this process's Temporal worker runtime before a command runs, with the log format of the
 * command's config (`--config`, `DEERFLOW_CONFIG`, `./config.yaml`) and, for `deerflow worker`, its
 * Prometheus endpoint; short-lived commands never bind the metrics port (a worker on the same host
 * may hold it). Core logs are forwarded to the logger so they never reach `--json` output on stdout.
 */
export function installCliRuntime(command: string, configPath: string | undefined): void {
  const telemetry = telemetryOf(configPath);
  installWorkerRuntime({
    level: logLevelFromEnv(),
    forwardCoreLogs: true,
    telemetry: telemetry && { ...telemetry, prometheus_bind: command === METRICS_COMMAND ? telemetry.prometheus_bind : null },
  });
}

function telemetryOf(configPath: string | undefined): TelemetryConfig | undefined {
  try {
    return loadCliConfig(configPath).config.telemetry;
  } catch (err) {
    // An invalid config is the command's to report, with its exit code; the runtime keeps defaults.
    if (err instanceof CliExit) return undefined;
    throw err;
  }
}
