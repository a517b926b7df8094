/**
 * The error an aborted `signal` stands for: its `reason`, or a DOMException `AbortError` when the
 * runtime left `reason` unset.
 */
export function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/**
 * Waits `ms` milliseconds. Aborting `signal` rejects at once with {@link abortReason} and clears
 * the timer, so an aborted wait leaves nothing pending in the event loop.
 * @throws the abort reason when `signal` is or becomes aborted
 */
export function abortableDelay(ms: number, signal?: AbortSignal): Promise<void> {
  if (signal?.aborted === true) return Promise.reject(abortReason(signal));
  if (ms <= 0) return Promise.resolve();
  return new Promise<void>((resolve, reject) => {
    const onAbort = (): void => {
      clearTimeout(timer);
      if (signal !== undefined) reject(abortReason(signal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
