import { boundText, TaskToolArgsSchema, type CatalogEntry, type ToolCall } from '../contracts';

/** Longest task description kept in workflow state and summaries. */
export const TASK_DESCRIPTION_MAX_CHARS = 200;

export type TaskCallCheck =
  | { readonly ok: true; readonly description: string; readonly subagent: CatalogEntry }
  | { readonly ok: false; readonly error: string };

/**
 * Checks a `task` call's arguments and subagent type against the run's catalog snapshot (pure).
 * Errors name the offending fields so the model can correct its call.
 */
export function validateTaskCall(call: ToolCall, catalog: readonly CatalogEntry[]): TaskCallCheck {
  const parsed = TaskToolArgsSchema.safeParse(call.args);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join('.') : '(arguments)';
      const message = issue.code === 'unrecognized_keys' ? `unknown argument(s) ${issue.keys.join(', ')}` : issue.message;
      return `${field}: ${message}`;
    });
    return { ok: false, error: `Invalid task arguments: ${problems.join('; ')}` };
  }
  const subagent = catalog.find((entry) => entry.name === parsed.data.subagent_type);
  if (subagent === undefined) {
    const available = catalog.length > 0 ? catalog.map((entry) => entry.name).join(', ') : 'none';
    return { ok: false, error: `Unknown subagent type '${parsed.data.subagent_type}'. Available: ${available}` };
  }
  return { ok: true, description: boundText(parsed.data.description, TASK_DESCRIPTION_MAX_CHARS), subagent };
}
