/**
 * Dynamic config the embedded dev server starts with.
 *
 * The dev server's history service has one shard, and each of the shard's queue readers may read
 * its queue at most 20 times a second by default (`history.*ProcessorMaxPollRPS`, a token bucket
 * with a burst of 20). The transfer queue hands every workflow and activity task to matching, so
 * once a few workflows have spent the burst, each step of a workflow waits up to 50 ms for the next
 * read: a one-activity workflow took ~145 ms instead of ~25 on an idle server. The limit protects a
 * shared database from many shards' readers; the dev server has one reader per queue on its own
 * SQLite file. At 1,000 reads a second a step waits at most 1 ms (one-activity workflows in a row:
 * ~25 ms each; ~35 at 100 reads a second). Under a sustained load of many workflows the reader
 * reads more often, in smaller batches: a 600-item batch measured a few ms more server CPU per item
 * (as much at 100 reads a second). A reader with nothing to read waits for a notification, so an
 * idle server does no more work.
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, number>> = {
  // Workflow and activity tasks on their way to matching.
  'history.transferProcessorMaxPollRPS': 1000,
  // Timers, timeouts and retry backoffs.
  'history.timerProcessorMaxPollRPS': 1000,
  // Visibility records: what lists and Temporal Web show.
  'history.visibilityProcessorMaxPollRPS': 1000,
};

/** `--dynamic-config-value key=value` argument pairs for `temporal server start-dev` (values are JSON). */
export function dynamicConfigFlags(values: Readonly<Record<string, unknown>> = DEV_SERVER_DYNAMIC_CONFIG): string[] {
  return Object.entries(values).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);
}
