/**
 * Batch item tries of one worker process that wait for a running lease of their batch. A try that
 * gives its lease back wakes the longest waiter of the same batch at once, so within a process a
 * lease passes from one item to the next without waiting for a poll; leases released by other
 * processes are found by polling the store.
 */
export class BatchLeaseWaiters {
  readonly #waiting = new Map<string, Array<() => void>>();

  /**
   * Resolves when a lease of `batchId` is released in this process and this waiter is the longest
   * waiting, after `ms`, or when `signal` aborts, whichever comes first. Never rejects: the caller
   * checks its signal.
   */
  wait(batchId: string, ms: number, signal: AbortSignal): Promise<void> {
    return new Promise<void>((resolve) => {
      const queue = this.#waiting.get(batchId) ?? [];
      this.#waiting.set(batchId, queue);
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        const at = queue.indexOf(done);
        if (at >= 0) queue.splice(at, 1);
        if (queue.length === 0 && this.#waiting.get(batchId) === queue) this.#waiting.delete(batchId);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
      queue.push(done);
      if (signal.aborted) done();
    });
  }

  /** A lease of `batchId` was given back: the longest waiter of that batch tries again now. */
  released(batchId: string): void {
    this.#waiting.get(batchId)?.[0]?.();
  }
}
