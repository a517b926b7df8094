import {
  SKILL_POLICY_ALWAYS_ALLOWED_TOOLS,
  UNRESTRICTED_SKILL_TOOL_POLICY,
  isToolAllowedBySkills,
  skillToolPolicy,
  skillToolRefusal,
  type SkillToolRule,
} from '../../../src/middleware';

const SKILLS: readonly SkillToolRule[] = [
  { name: 'pdf', allowedTools: ['read_file', 'bash'] },
  { name: 'notes', allowedTools: ['write_file'] },
  { name: 'free', allowedTools: null },
  { name: 'locked', allowedTools: [] },
];
const active = (...names: string[]) => names.map((name) => ({ name, path: `/mnt/skills/public/${name}/SKILL.md` }));

describe('skillToolPolicy', () => {
  it('does not restrict without an active skill', () => {
    const policy = skillToolPolicy([], SKILLS);
    expect(policy).toBe(UNRESTRICTED_SKILL_TOOL_POLICY);
    expect(isToolAllowedBySkills(policy, 'write_file')).toBe(true);
  });

  it("allows one active skill's list plus read_file and tool_search", () => {
    const policy = skillToolPolicy(active('notes'), SKILLS);
    expect([...(policy.allowed ?? [])].sort()).toEqual(['read_file', 'tool_search', 'write_file']);
    expect(policy.restrictedBy).toEqual(['notes']);
    expect(isToolAllowedBySkills(policy, 'bash')).toBe(false);
  });

  it('allows the union of several active skills, naming them in load order', () => {
    const policy = skillToolPolicy(active('notes', 'pdf', 'notes'), SKILLS);
    expect([...(policy.allowed ?? [])].sort()).toEqual(['bash', 'read_file', 'tool_search', 'write_file']);
    expect(policy.restrictedBy).toEqual(['notes', 'pdf']);
    expect(isToolAllowedBySkills(policy, 'web_fetch')).toBe(false);
  });

  it('lifts the restriction when an active skill has no allowed_tools, wherever it comes in the order', () => {
    expect(skillToolPolicy(active('free'), SKILLS)).toBe(UNRESTRICTED_SKILL_TOOL_POLICY);
    expect(skillToolPolicy(active('pdf', 'free'), SKILLS)).toBe(UNRESTRICTED_SKILL_TOOL_POLICY);
    expect(skillToolPolicy(active('free', 'pdf'), SKILLS)).toBe(UNRESTRICTED_SKILL_TOOL_POLICY);
  });

  it('keeps the always-allowed tools under an empty list', () => {
    const policy = skillToolPolicy(active('locked'), SKILLS);
    expect([...(policy.allowed ?? [])]).toEqual([...SKILL_POLICY_ALWAYS_ALLOWED_TOOLS]);
    expect(isToolAllowedBySkills(policy, 'read_file')).toBe(true);
    expect(isToolAllowedBySkills(policy, 'bash')).toBe(false);
  });

  it('ignores an active skill it does not know: it neither restricts nor lifts a restriction', () => {
    expect(skillToolPolicy(active('unknown'), SKILLS)).toBe(UNRESTRICTED_SKILL_TOOL_POLICY);
    expect(skillToolPolicy(active('notes', 'unknown'), SKILLS).restrictedBy).toEqual(['notes']);
    expect(skillToolPolicy(active('notes'), [])).toBe(UNRESTRICTED_SKILL_TOOL_POLICY);
  });

  it('matches tool names exactly, whatever they look like (built-in or namespaced MCP)', () => {
    const policy = skillToolPolicy(active('mcp'), [{ name: 'mcp', allowedTools: ['github__create_issue'] }]);
    expect(isToolAllowedBySkills(policy, 'github__create_issue')).toBe(true);
    expect(isToolAllowedBySkills(policy, 'github__delete_repo')).toBe(false);
    expect(isToolAllowedBySkills(policy, 'GITHUB__CREATE_ISSUE')).toBe(false);
  });
});

describe('skillToolRefusal', () => {
  it('names the tool, the skill and the allowed tools', () => {
    expect(skillToolRefusal(skillToolPolicy(active('pdf'), SKILLS), 'write_file')).toBe(
      "Error: tool 'write_file' is not allowed while skill 'pdf' is active (allowed_tools). Allowed tools now: bash, read_file, tool_search.",
    );
  });

  it('names every restricting skill', () => {
    expect(skillToolRefusal(skillToolPolicy(active('pdf', 'notes'), SKILLS), 'web_fetch')).toBe(
      "Error: tool 'web_fetch' is not allowed while skills 'pdf', 'notes' are active (allowed_tools). Allowed tools now: bash, read_file, tool_search, write_file.",
    );
  });
});
