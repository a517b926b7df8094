/**
 * Tools a skill policy never takes away. `read_file` is how the agent activates a skill and reads
 * the files its instructions point to (SKILL.md is read with it, and other files are relative to
 * its folder), so removing it would lock the agent out of the instructions the policy comes from.
 * It is read-only and confined to the workspace and the read-only skill mount. `tool_search` only
 * loads schemas: a deferred tool it promotes still passes the policy like any other tool, so
 * keeping it lets a skill's listed MCP tools be reached at all.
 */
export const SKILL_POLICY_ALWAYS_ALLOWED_TOOLS: readonly string[] = ['read_file', 'tool_search'];

/** What the policy needs of a skill the agent may load (`SkillMetadata` from `src/skills` fits). */
export interface SkillToolRule {
  readonly name: string;
  /** The skill's `allowed_tools`; null = no restriction, `[]` = only the always-allowed tools. */
  readonly allowedTools: readonly string[] | null;
}

/** The tools the active skills allow, or no restriction. */
export interface SkillToolPolicy {
  /** Tool names allowed (the always-allowed ones included); null = every tool is allowed. */
  readonly allowed: ReadonlySet<string> | null;
  /** The active skills whose lists make up {@link allowed}, in load order; `[]` when unrestricted. */
  readonly restrictedBy: readonly string[];
}

/** The policy when no skill restricts anything. */
export const UNRESTRICTED_SKILL_TOOL_POLICY: SkillToolPolicy = { allowed: null, restrictedBy: [] };

/**
 * The tool policy of the active skills (pure). A tool is allowed when any active skill allows it:
 * - no active skill → no restriction;
 * - an active skill without `allowed_tools` allows every tool, so it lifts the restriction;
 * - otherwise the union of the active skills' lists plus {@link SKILL_POLICY_ALWAYS_ALLOWED_TOOLS}.
 *
 * Skills are matched by name (the folder name, which the active-skill tracking takes from the path
 * the agent read). An active name that `skills` does not hold is ignored: its instructions were not
 * offered to this agent (a failed read, or a skill outside its list) and counting it as "no list"
 * would let any made-up path lift the restriction.
 * @param active - the active skills, in load order (duplicates are harmless)
 * @param skills - the skills the agent may load, with their `allowed_tools`
 */
export function skillToolPolicy(active: readonly { readonly name: string }[], skills: readonly SkillToolRule[]): SkillToolPolicy {
  const rules = new Map(skills.map((s) => [s.name, s.allowedTools]));
  const allowed = new Set(SKILL_POLICY_ALWAYS_ALLOWED_TOOLS);
  const restrictedBy: string[] = [];
  for (const { name } of active) {
    if (!rules.has(name) || restrictedBy.includes(name)) continue;
    const list = rules.get(name) ?? null;
    if (list === null) return UNRESTRICTED_SKILL_TOOL_POLICY;
    restrictedBy.push(name);
    for (const tool of list) allowed.add(tool);
  }
  return restrictedBy.length === 0 ? UNRESTRICTED_SKILL_TOOL_POLICY : { allowed, restrictedBy };
}

/** True when `policy` lets the agent call the tool named `toolName`. */
export function isToolAllowedBySkills(policy: SkillToolPolicy, toolName: string): boolean {
  return policy.allowed === null || policy.allowed.has(toolName);
}

/**
 * The error text a refused call gets, naming the tool, the restricting skills and what is allowed,
 * so the model can pick an allowed tool instead of retrying. Tool names come from the model and are
 * quoted as given (the tool-result sanitizer neutralizes the message like any tool output).
 */
export function skillToolRefusal(policy: SkillToolPolicy, toolName: string): string {
  const skills = policy.restrictedBy.map((s) => `'${s}'`).join(', ');
  const which = policy.restrictedBy.length === 1 ? `skill ${skills} is` : `skills ${skills} are`;
  const allowed = [...(policy.allowed ?? [])].sort().join(', ');
  return `Error: tool '${toolName}' is not allowed while ${which} active (allowed_tools). Allowed tools now: ${allowed}.`;
}
