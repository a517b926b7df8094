import { DefaultLogger, Runtime } from '@temporalio/worker';

/** Bundler logger that keeps only warnings and errors. */
export const quietBundlerLogger = {
  log: () => undefined,
  trace: () => undefined,
  debug: () => undefined,
  info: () => undefined,
  warn: (message: string) => console.warn(message),
  error: (message: string) => console.error(message),
};

/**
 * Installs the Temporal runtime for the benchmark: WARN logs to stderr, and no signal handlers of
 * its own (the benchmark stops its workers and the dev server itself on Ctrl-C).
 * Must run before the first native connection or worker is created.
 */
export function installBenchRuntime(): void {
  Runtime.install({
    shutdownSignals: [],
    logger: new DefaultLogger('WARN', (entry) => {
      // Activity-only and workflow-only workers are that way by design.
      if (entry.message.startsWith('No workflows registered') || entry.message.startsWith('No activities registered')) return;
      process.stderr.write(`[${entry.level}] ${entry.message}\n`);
    }),
  });
}
