import type { ChildProcess } from 'node:child_process';

// Signals that end a Node process by default without emitting 'exit'.
const FATAL_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP'];

/**
 * Makes sure `child` does not outlive this process: it is killed on 'exit', and on a fatal signal
 * it is asked to stop before this process dies of that signal as it would have without us.
 *
 * @returns a function that removes the handlers (call it once the child is stopped).
 */
export function tieChildToParent(child: ChildProcess): () => void {
  // 'exit' handlers must be synchronous, so there is no waiting for a graceful stop here.
  const onExit = (): void => void child.kill('SIGKILL');
  const onSignal = (signal: NodeJS.Signals): void => {
    child.kill('SIGTERM');
    // Listening to a signal disables Node's default of dying from it; restore that unless the
    // application has handlers of its own (then ending the process is their decision).
    if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
  };
  process.on('exit', onExit);
  FATAL_SIGNALS.forEach((signal) => process.once(signal, onSignal));
  return () => {
    process.off('exit', onExit);
    FATAL_SIGNALS.forEach((signal) => process.off(signal, onSignal));
  };
}
