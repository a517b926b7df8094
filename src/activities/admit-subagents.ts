import type { AdmissionDecision, AdmissionRequest } from '../contracts';
import type { ActivityDeps } from './activity-deps';
import { decideAdmission } from './admission';

/** Builds the `admitSubagents` activity: admission with this worker's startup-frozen runtime settings. */
export function createAdmitSubagents(deps: ActivityDeps) {
  return async function admitSubagents(input: AdmissionRequest): Promise<AdmissionDecision> {
    return decideAdmission(input.requested, await deps.subagentBacklog(), deps.config.subagent_runtime);
  };
}
