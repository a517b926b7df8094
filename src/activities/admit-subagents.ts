import { decideAdmission, type AdmissionDecision, type AdmissionRequest, type AdmissionSnapshot } from '../contracts';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';

/** The subagent queue's backlog now, with this worker's startup-frozen admission settings. */
export async function readAdmissionSnapshot(deps: ActivityDeps): Promise<AdmissionSnapshot> {
  const { max_running, max_queued, admission_policy, queue_timeout_seconds } = deps.config.subagent_runtime;
  return { queued: await deps.subagentBacklog(), settings: { max_running, max_queued, admission_policy, queue_timeout_seconds } };
}

/**
 * Asks for the backlog reading ahead of {@link readAdmissionSnapshot}, without waiting for it: the
 * reader reuses a reading for a second from when it was asked for, so a snapshot read within that
 * time gets this one, and a later one reads again. A failed reading is not reused (the snapshot
 * reads again and reports its own failure).
 */
export function warmAdmissionSnapshot(deps: ActivityDeps): void {
  void deps.subagentBacklog().catch(() => undefined);
}

/** Admission of `requested` tasks against {@link readAdmissionSnapshot}. */
export async function admitTasks(deps: ActivityDeps, requested: number): Promise<AdmissionDecision> {
  const { queued, settings } = await readAdmissionSnapshot(deps);
  return decideAdmission(requested, queued, settings);
}

/** Builds the `admitSubagents` activity: {@link admitTasks} for one lead response's tasks. */
export function createAdmitSubagents(deps: ActivityDeps) {
  return async function admitSubagents(raw: AdmissionRequest): Promise<AdmissionDecision> {
    return admitTasks(deps, parseActivityInput('admitSubagents', raw).requested);
  };
}
