/**
 * Dynamic config the embedded dev server starts with. Its one history shard reads each queue at
 * most 20 times a second by default (`history.*ProcessorMaxPollRPS`, a token bucket with a burst of
 * 20): once a few workflows have spent the burst, every workflow task and activity handed to
 * matching waits up to 50 ms for the next read. The limit protects a database shared by many shards'
 * readers; the dev server has one reader per queue on its own SQLite file. A reader with nothing to
 * read waits for a notification, so an idle server does no more work. Figures: bench/FINDINGS.md
 * ("The dev server's read limit").
 *
 * The `temporal` CLI also makes the dev server read its search attribute definitions from its
 * database on every use (`system.forceSearchAttributesCacheRefreshOnRead`), so that attributes
 * added while it runs work at once. Ours are all registered when it starts, before it reports ready,
 * so it caches them as a production server does: every workflow start, upsert and visibility record
 * with custom attributes (a batch item has all three) otherwise costs the server a cluster metadata
 * and a namespace read. Figures: bench/FINDINGS.md ("Search attribute definitions cached").
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, number | boolean>> = {
  // Workflow and activity tasks on their way to matching.
  'history.transferProcessorMaxPollRPS': 1000,
  // Timers, timeouts and retry backoffs.
  'history.timerProcessorMaxPollRPS': 1000,
  // Visibility records: what lists and Temporal Web show.
  'history.visibilityProcessorMaxPollRPS': 1000,
  // Definitions cached, as on a production server (see above).
  'system.forceSearchAttributesCacheRefreshOnRead': false,
};

/** `--dynamic-config-value key=value` argument pairs for `temporal server start-dev` (values are JSON). */
export function dynamicConfigFlags(values: Readonly<Record<string, unknown>> = DEV_SERVER_DYNAMIC_CONFIG): string[] {
  return Object.entries(values).flatMap(([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`]);
}
