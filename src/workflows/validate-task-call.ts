import type { CatalogEntry, ToolCall } from '../contracts';
import { boundText } from '../contracts/bounded-text';
import { formatZodIssues } from '../contracts/format-zod-issues';
import { inputSchemas } from './input-schemas';

/** Longest task description kept in workflow state and summaries. */
export const TASK_DESCRIPTION_MAX_CHARS = 200;

/** The answer to a `bash` task when this deployment does not allow host bash (SPEC §3.7 step 3). */
export const LOCAL_BASH_SUBAGENT_DISABLED_MESSAGE =
  'Bash subagent is disabled: host bash is not allowed in this deployment, because commands would run unisolated on the host. ' +
  'Use an isolated sandbox provider (such as AioSandboxProvider), or set `sandbox.allow_host_bash: true` only in a trusted local environment. ' +
  'Meanwhile, delegate to general-purpose or do the work directly.';

/** The run's delegation policy, snapshotted when the run started. */
export interface TaskPolicy {
  /** Caller policy: null = every subagent, [] = none, list = allowlist. */
  readonly allowedSubagents: readonly string[] | null;
  readonly hostBashAllowed: boolean;
}

const OPEN_POLICY: TaskPolicy = { allowedSubagents: null, hostBashAllowed: true };

export type TaskCallCheck =
  /** `subagent` carries the task's effective timeout (a per-call `timeout_seconds` clamped to it). */
  | { readonly ok: true; readonly description: string; readonly subagent: CatalogEntry }
  | { readonly ok: false; readonly error: string };

/**
 * Checks a `task` call against the run's catalog snapshot and policy (pure). Argument errors name
 * the offending fields; the host-bash message comes before the membership check so its guidance
 * survives; an empty catalog says whether caller policy emptied it (SPEC §1.5).
 */
export function validateTaskCall(call: ToolCall, catalog: readonly CatalogEntry[], policy: TaskPolicy = OPEN_POLICY): TaskCallCheck {
  const parsed = inputSchemas.taskToolArgs().safeParse(call.args);
  if (!parsed.success) {
    const problems = formatZodIssues(parsed.error.issues, '(arguments)', (keys) => `unknown argument(s) ${keys.join(', ')}`);
    return { ok: false, error: `Invalid task arguments: ${problems}` };
  }
  const type = parsed.data.subagent_type;
  if (type === 'bash' && !policy.hostBashAllowed) return { ok: false, error: LOCAL_BASH_SUBAGENT_DISABLED_MESSAGE };
  const subagent = catalog.find((entry) => entry.name === type);
  if (subagent === undefined) return { ok: false, error: `Unknown subagent type '${type}'. Available: ${availableList(catalog, policy)}` };
  // A per-call timeout may only shorten the configured one.
  const timeoutSeconds = Math.min(parsed.data.timeout_seconds ?? subagent.timeoutSeconds, subagent.timeoutSeconds);
  return {
    ok: true,
    description: boundText(parsed.data.description, TASK_DESCRIPTION_MAX_CHARS),
    subagent: timeoutSeconds === subagent.timeoutSeconds ? subagent : { ...subagent, timeoutSeconds },
  };
}

function availableList(catalog: readonly CatalogEntry[], policy: TaskPolicy): string {
  if (catalog.length > 0) return catalog.map((entry) => entry.name).join(', ');
  return policy.allowedSubagents === null ? 'none' : 'none permitted by caller policy';
}
