import type { AppConfig } from '../config/schema';
import { LEAD_TOOL_NAMES, type LeadToolName } from '../contracts/tool-names';

/**
 * The lead's own tools for a run (pure): every lead tool this deployment offers (`bash` only with
 * `sandbox.allow_host_bash`), narrowed by the agent's `tools` allowlist (null = all of them).
 */
export function resolveLeadTools(config: AppConfig, allowlist: readonly string[] | null): LeadToolName[] {
  return LEAD_TOOL_NAMES.filter((name) => (name !== 'bash' || config.sandbox.allow_host_bash) && (allowlist === null || allowlist.includes(name)));
}
