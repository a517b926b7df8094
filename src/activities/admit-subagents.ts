import { decideAdmission, type AdmissionDecision, type AdmissionRequest, type AdmissionSnapshot } from '../contracts';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';

/** The subagent queue's backlog now, with this worker's startup-frozen admission settings. */
export async function readAdmissionSnapshot(deps: ActivityDeps): Promise<AdmissionSnapshot> {
  const { max_running, max_queued, admission_policy, queue_timeout_seconds } = deps.config.subagent_runtime;
  return { queued: await deps.subagentBacklog(), settings: { max_running, max_queued, admission_policy, queue_timeout_seconds } };
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
