import type { AdmissionDecision, AdmissionRequest } from '../contracts';
import type { ActivityDeps } from './activity-deps';
import { decideAdmission } from './admission';
import { parseActivityInput } from './parse-activity-input';

/** Admission of `requested` tasks with this worker's startup-frozen runtime settings and the queue's backlog now. */
export async function admitTasks(deps: ActivityDeps, requested: number): Promise<AdmissionDecision> {
  return decideAdmission(requested, await deps.subagentBacklog(), deps.config.subagent_runtime);
}

/** Builds the `admitSubagents` activity: {@link admitTasks} for one lead response's tasks. */
export function createAdmitSubagents(deps: ActivityDeps) {
  return async function admitSubagents(raw: AdmissionRequest): Promise<AdmissionDecision> {
    return admitTasks(deps, parseActivityInput('admitSubagents', raw).requested);
  };
}
