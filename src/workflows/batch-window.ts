/**
 * Decisions of the batch workflow's sliding window (pure; the workflow applies them).
 */

/** Items to fetch from the store per page when the window needs more keys. */
export const BATCH_KEY_PAGE = 500;

/**
 * How many more item workflows the batch may start now. With `freeSlots` (items start holding a
 * running slot), no more than the slots free: an item started without one would only wait for it.
 */
export function itemsToStart(window: { live: number; maxLive: number; stopping: boolean; freeSlots?: number }): number {
  if (window.stopping) return 0;
  return Math.max(0, Math.min(window.maxLive - window.live, window.freeSlots ?? Infinity));
}

/**
 * The items to grant a running slot now, in request order: as many as `maxRunning` leaves room
 * for next to the current holders.
 */
export function slotsToGrant(waiting: readonly string[], holders: number, maxRunning: number): string[] {
  return waiting.slice(0, Math.max(0, maxRunning - holders));
}

/**
 * True once this run's history should end in continue-as-new: Temporal suggests it (near its
 * event or size limits), or the history reached the batch's own event limit, well before.
 */
export function shouldContinueAsNew(history: { length: number; suggested: boolean }, eventLimit: number): boolean {
  return history.suggested || history.length >= eventLimit;
}

/** Upsert the done-count search attribute after this many more items (about 20 updates per batch). */
export function progressStride(itemCount: number): number {
  return Math.max(1, Math.ceil(itemCount / 20));
}
