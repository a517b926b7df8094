import type { AdmissionDecision, AdmissionRequest } from '../contracts';
import type { ActivityDeps } from './activity-deps';
import { decideAdmission } from './admission';
import { parseActivityInput } from './parse-activity-input';

/** Builds the `admitSubagents` activity: admission with this worker's startup-frozen runtime settings. */
export function createAdmitSubagents(deps: ActivityDeps) {
  return async function admitSubagents(raw: AdmissionRequest): Promise<AdmissionDecision> {
    const { requested } = parseActivityInput('admitSubagents', raw);
    return decideAdmission(requested, await deps.subagentBacklog(), deps.config.subagent_runtime);
  };
}
