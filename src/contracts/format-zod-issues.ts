/**
 * The parts of a zod issue that a `field: problem` line uses. Structural, so workflow code can
 * format issues without loading zod.
 */
export interface ZodIssueLike {
  readonly path: readonly PropertyKey[];
  readonly message: string;
  readonly code?: string;
  /** The unknown keys of an `unrecognized_keys` issue. */
  readonly keys?: readonly string[];
}

/**
 * One `field: problem` line per issue: the field is the dotted path (`runtime.subagent.name`), or
 * `rootLabel` for an issue about the whole value. `unknownKeys`, when given, words the problem of
 * an `unrecognized_keys` issue instead of zod's message.
 */
export function zodIssueLines(issues: readonly ZodIssueLike[], rootLabel: string, unknownKeys?: (keys: readonly string[]) => string): string[] {
  return issues.map((issue) => {
    const field = issue.path.map(String).join('.') || rootLabel;
    const problem = unknownKeys !== undefined && issue.code === 'unrecognized_keys' ? unknownKeys(issue.keys ?? []) : issue.message;
    return `${field}: ${problem}`;
  });
}

/** {@link zodIssueLines} on one line, joined by `; ` (`title: is required; limits.maxAttempts: must be <= 10`). */
export function formatZodIssues(issues: readonly ZodIssueLike[], rootLabel: string, unknownKeys?: (keys: readonly string[]) => string): string {
  return zodIssueLines(issues, rootLabel, unknownKeys).join('; ');
}
