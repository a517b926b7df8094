import { DefaultLogger, Runtime, type LogLevel } from '@temporalio/worker';

let installed = false;

const LOG_LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** The worker log level named by `DEERFLOW_LOG_LEVEL` (case-insensitive), else WARN. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const wanted = env.DEERFLOW_LOG_LEVEL?.trim().toUpperCase();
  return LOG_LEVELS.find((level) => level === wanted) ?? 'WARN';
}

/**
 * Routes the Temporal worker runtime's logs to stderr at `level` (default WARN, so CLI output stays
 * readable). Must run before the first worker or native connection is created; later calls are no-ops.
 * `forwardCoreLogs` routes the native core's own logs there too: otherwise it prints them to stdout
 * (with colour codes), into `--json` output. Forwarding keeps the process alive until it exits, so
 * only processes that end with `process.exit` (the CLI) ask for it.
 */
export function installWorkerLogging(level: LogLevel = 'WARN', options: { forwardCoreLogs?: boolean } = {}): void {
  if (installed) return;
  installed = true;
  Runtime.install({
    logger: new DefaultLogger(level, (entry) => {
      // The subagent worker serves activities only by design; its "no workflows" notice is noise.
      if (entry.message.startsWith('No workflows registered')) return;
      process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}\n`);
    }),
    ...(options.forwardCoreLogs ? { telemetryOptions: { logging: { forward: {} } } } : {}),
  });
}
