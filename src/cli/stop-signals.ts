/** SIGINT/SIGTERM as a promise, see {@link stopSignals}. */
export interface StopSignals {
  /** Resolves on the first SIGINT or SIGTERM. */
  readonly received: Promise<void>;
  /** True once the first signal arrived. */
  readonly arrived: boolean;
  /** Removes the listeners. */
  dispose(): void;
}

/**
 * SIGINT/SIGTERM as a promise. The listeners stay installed until `dispose()`: other handlers (the
 * embedded dev server's) re-raise the signal to kill the process when no listener is left, which
 * would cut the graceful stop short. A second signal during the stop exits at once (code 130).
 */
export function stopSignals(log: (line: string) => void): StopSignals {
  let count = 0;
  let resolve = () => {};
  const received = new Promise<void>((r) => (resolve = r));
  const onSignal = (signal: NodeJS.Signals) => {
    count += 1;
    if (count === 1) return resolve();
    log(`${signal} again: exiting without a graceful stop`);
    process.exit(130);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return {
    received,
    get arrived() {
      return count > 0;
    },
    dispose() {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    },
  };
}
