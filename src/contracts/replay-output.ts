import { z } from 'zod';

/** How replaying a history on the current workflow code ended. */
export const ReplayOutcomeSchema = z.enum([
  /** The code issued exactly the commands the history recorded. */
  'replayed',
  /** The code issued other commands (a `DeterminismViolationError`): deploying it would break such runs. */
  'diverged',
  /** The replay failed otherwise (a `ReplayError`, e.g. the workflow task failed). */
  'failed',
]);
export type ReplayOutcome = z.infer<typeof ReplayOutcomeSchema>;

/** The object `deerflow replay --json` prints. */
export const ReplayJsonOutputSchema = z.strictObject({
  workflow_id: z.string(),
  /** The replayed execution's Temporal run id, as its start event names it (null when it does not). */
  run_id: z.string().nullable(),
  workflow_type: z.string().nullable(),
  /** Where the history came from: fetched from the cluster, or read from a JSON export. */
  source: z.enum(['cluster', 'file']),
  events: z.number().int().nonnegative(),
  outcome: ReplayOutcomeSchema,
  /** Why it diverged or failed (a divergence names the event and the command); null when replayed. */
  error: z.string().nullable(),
});
export type ReplayJsonOutput = z.infer<typeof ReplayJsonOutputSchema>;
