import { z } from 'zod';

/** The `subagent_runtime` settings admission reads: the deciding worker's, frozen when it started. */
export const AdmissionSettingsSchema = z.object({
  max_running: z.number().int().min(1),
  max_queued: z.number().int().nonnegative(),
  admission_policy: z.enum(['queue', 'reject']),
  queue_timeout_seconds: z.number().int().min(1),
});
export type AdmissionSettings = z.infer<typeof AdmissionSettingsSchema>;

/**
 * What admitting a lead response's tasks needs, read by the model step that produced them (when the
 * run asks for it): the subagent queue's backlog at the end of the step, and the step's worker's
 * settings. The workflow decides with `decideAdmission`, without an activity of its own.
 */
export const AdmissionSnapshotSchema = z.object({
  queued: z.number().int().nonnegative(),
  settings: AdmissionSettingsSchema,
});
export type AdmissionSnapshot = z.infer<typeof AdmissionSnapshotSchema>;
