import type { ActiveSkill } from './durable-context';

/** Where skills are mounted for agents (see src/skills). */
const SKILLS_ROOT = '/mnt/skills/';
const SKILL_FILE = '/SKILL.md';

interface SkillReadCall {
  readonly name?: string;
  readonly args?: unknown;
}

interface MessageWithToolCalls {
  readonly type: string;
  readonly tool_calls?: readonly SkillReadCall[] | null;
}

/**
 * Skills the agent has loaded, in load order: every `read_file` of a `/mnt/skills/.../SKILL.md`
 * (SPEC §6.5 skill capture). Pure; descriptions are unknown here and left out.
 */
export function activeSkills(messages: readonly MessageWithToolCalls[]): ActiveSkill[] {
  const found = new Map<string, ActiveSkill>();
  for (const message of messages) {
    if (message.type !== 'ai') continue;
    for (const call of message.tool_calls ?? []) {
      if (call.name !== 'read_file' || typeof call.args !== 'object' || call.args === null) continue;
      const path = (call.args as { path?: unknown }).path;
      if (typeof path !== 'string' || !path.startsWith(SKILLS_ROOT) || !path.endsWith(SKILL_FILE)) continue;
      const name = path.slice(0, -SKILL_FILE.length).split('/').pop() ?? '';
      if (name !== '' && !found.has(path)) found.set(path, { name, path });
    }
  }
  return [...found.values()];
}
