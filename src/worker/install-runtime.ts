import { DefaultLogger, Runtime, type LogEntry, type Logger, type LogLevel, type LogMetadata } from '@temporalio/worker';
import type { DestinationStream } from 'pino';
import type { TelemetryConfig } from '../config';
import { JsonTemporalLogger } from '../telemetry';

let installed = false;

const LOG_LEVELS: readonly LogLevel[] = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR'];

/** The worker log level named by `DEERFLOW_LOG_LEVEL` (case-insensitive), else WARN. */
export function logLevelFromEnv(env: NodeJS.ProcessEnv = process.env): LogLevel {
  const wanted = env.DEERFLOW_LOG_LEVEL?.trim().toUpperCase();
  return LOG_LEVELS.find((level) => level === wanted) ?? 'WARN';
}

/** Options of {@link installWorkerRuntime}. */
export interface WorkerRuntimeOptions {
  /** Lowest level logged. @default 'WARN' (CLI output stays readable) */
  readonly level?: LogLevel;
  /**
   * Route the native core's own logs to the runtime logger too: otherwise it prints them to stdout
   * (with colour codes), into `--json` output. Forwarding keeps the process alive until it exits,
   * so only processes that end with `process.exit` (the CLI) ask for it.
   */
  readonly forwardCoreLogs?: boolean;
  /** Log format, service name and Prometheus address; absent = text logs, no metrics endpoint. */
  readonly telemetry?: Pick<TelemetryConfig, 'log_format' | 'service_name' | 'prometheus_bind'>;
  /** Where JSON lines go. @default stderr */
  readonly jsonDestination?: DestinationStream;
}

/**
 * Installs the Temporal worker runtime of this process: its logger (text lines or pino JSON lines
 * on stderr) and, with `telemetry.prometheus_bind`, the SDK's Prometheus metrics endpoint
 * (`http://<bind>/metrics`, metrics prefixed `temporal_`). The runtime exists once per process and
 * must be installed before the first worker or native connection; later calls are no-ops.
 * @returns whether this call installed it.
 */
export function installWorkerRuntime(options: WorkerRuntimeOptions = {}): boolean {
  if (installed) return false;
  installed = true;
  const level = options.level ?? 'WARN';
  const telemetry = options.telemetry;
  const logger =
    telemetry?.log_format === 'json'
      ? new JsonTemporalLogger({ level, serviceName: telemetry.service_name, destination: options.jsonDestination })
      : new DefaultLogger(level, writeTextLine);
  const prometheus = telemetry?.prometheus_bind ?? null;
  Runtime.install({
    logger: withoutNoWorkflowsNotice(logger),
    telemetryOptions: {
      ...(options.forwardCoreLogs ? { logging: { forward: {} } } : {}),
      ...(prometheus === null ? {} : { metrics: { prometheus: { bindAddress: prometheus } } }),
    },
  });
  return true;
}

function writeTextLine(entry: LogEntry): void {
  process.stderr.write(`${new Date(Number(entry.timestampNanos / 1_000_000n)).toISOString()} [${entry.level}] ${entry.message}\n`);
}

/** The subagent worker serves activities only by design; its "no workflows" notice is noise. */
function withoutNoWorkflowsNotice(logger: Logger): Logger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata): void => {
    if (!message.startsWith('No workflows registered')) logger.log(level, message, meta);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}
