import type { Logger, LogLevel, LogMetadata } from '@temporalio/worker';
import { pino, type DestinationStream, type Level } from 'pino';

/** Options of {@link JsonTemporalLogger}. */
export interface JsonTemporalLoggerOptions {
  /** Lowest level written. */
  readonly level: LogLevel;
  /** `service` field of every line. */
  readonly serviceName: string;
  /** @default stderr, written synchronously so lines are not lost when the process exits */
  readonly destination?: DestinationStream;
}

const PINO_LEVELS: Record<LogLevel, Level> = { TRACE: 'trace', DEBUG: 'debug', INFO: 'info', WARN: 'warn', ERROR: 'error' };

/**
 * A Temporal runtime logger that writes one JSON object per line through pino: `level` (a name), `time`,
 * `msg`, `service`, and the SDK's metadata as fields (`workflowId`, `activityType`, ... and, from
 * activities, the `thread_id`, `run_id`, `task_id` the ids interceptor adds). An `error` field is
 * serialized with its message and stack.
 */
export class JsonTemporalLogger implements Logger {
  private readonly pino: pino.Logger;

  constructor(options: JsonTemporalLoggerOptions) {
    this.pino = pino(
      {
        level: PINO_LEVELS[options.level],
        base: { service: options.serviceName },
        timestamp: pino.stdTimeFunctions.isoTime,
        // Level names, not pino's numbers: log pipelines and people filter on "warn", not 40.
        formatters: { level: (label) => ({ level: label }) },
        serializers: { error: pino.stdSerializers.err },
      },
      options.destination ?? pino.destination({ fd: 2, sync: true }),
    );
  }

  log(level: LogLevel, message: string, meta: LogMetadata = {}): void {
    this.pino[PINO_LEVELS[level]](meta, message);
  }

  trace(message: string, meta?: LogMetadata): void {
    this.log('TRACE', message, meta);
  }

  debug(message: string, meta?: LogMetadata): void {
    this.log('DEBUG', message, meta);
  }

  info(message: string, meta?: LogMetadata): void {
    this.log('INFO', message, meta);
  }

  warn(message: string, meta?: LogMetadata): void {
    this.log('WARN', message, meta);
  }

  error(message: string, meta?: LogMetadata): void {
    this.log('ERROR', message, meta);
  }
}
