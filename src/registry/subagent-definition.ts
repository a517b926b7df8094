/** A subagent the lead can delegate to, after config overrides are applied. */
export interface SubagentDefinition {
  readonly name: string;
  /** When the lead should delegate; the first line is what custom agents show in the lead prompt. */
  readonly description: string;
  readonly systemPrompt: string;
  /** Tool allowlist; null = every tool the parent has. */
  readonly tools: readonly string[] | null;
  /** Always applied after the allowlist. */
  readonly disallowedTools: readonly string[];
  /** null = all enabled skills, [] = none, list = allowlist. */
  readonly skills: readonly string[] | null;
  /** A configured model name, or `inherit` (the lead's model). */
  readonly model: string;
  readonly maxTurns: number;
  readonly timeoutSeconds: number;
  /** Where the definition comes from; managed ones were created at run time by an administrator. */
  readonly source: 'builtin' | 'config' | 'managed';
}

/** The model name meaning "use the parent's model". */
export const INHERIT_MODEL = 'inherit';
