/**
 * User-scoped skills for subagents (SPEC §1.6): storage of SKILL.md folders, the selection rules,
 * and the `<skill_system>` prompt section. Runs in activities only (it reads the file system).
 */
export { SkillError, SkillErrorCode, isSkillError } from './errors';
export type { SkillErrorDetails } from './errors';
export {
  DEFAULT_USER_ID,
  SKILLS_VIRTUAL_ROOT,
  SKILL_FILE_NAME,
  SkillSource,
  assertValidSkillName,
  isValidSkillName,
  isValidUserId,
  normalizeUserId,
  skillVirtualPath,
} from './skill-paths';
export { SkillFrontMatterSchema, parseSkillFile } from './skill-file';
export type { ParsedSkillFile, SkillFileLocation, SkillFrontMatter } from './skill-file';
export { UserSkillStorage, getOrNewUserSkillStorage } from './user-skill-storage';
export type { SkillMetadata } from './user-skill-storage';
export { intersectSkillAllowlists, loadSubagentSkills, selectSubagentSkills } from './select-skills';
export type { LoadSubagentSkillsOptions } from './select-skills';
export { SKILL_DESCRIPTION_MAX_CHARS, buildSkillsSection, escapeSkillText } from './skills-section';
