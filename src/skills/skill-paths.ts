import { SkillError, SkillErrorCode } from './errors';

/** Where agents see skills; host folders are mapped onto it by the storage. */
export const SKILLS_VIRTUAL_ROOT = '/mnt/skills';

/** The file that makes a folder a skill. */
export const SKILL_FILE_NAME = 'SKILL.md';

/** The user id used when a run carries none. */
export const DEFAULT_USER_ID = 'default';

/** Where a skill comes from: deployment-wide (`public`) or the user's own (`user`). */
export const SkillSource = {
  Public: 'public',
  User: 'user',
} as const;
/** Union of {@link SkillSource} values. */
export type SkillSource = (typeof SkillSource)[keyof typeof SkillSource];

// Starts with an alphanumeric so `.`/`..` and hidden folders are impossible; no separators, so it
// stays one path segment. `@` lets e-mail-like user ids through; it is inert in a folder name.
const USER_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.@-]{0,127}$/;
const SKILL_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

/** True when `userId` is safe to use as a folder name under `<dataDir>/users/`. */
export function isValidUserId(userId: string): boolean {
  return USER_ID_PATTERN.test(userId);
}

/** True when `name` is a valid skill name, hence a safe folder name. */
export function isValidSkillName(name: string): boolean {
  return SKILL_NAME_PATTERN.test(name);
}

/**
 * The user id to scope skills by: {@link DEFAULT_USER_ID} when none is given (`undefined`, `null`
 * or `''`, as the reference's `user_id or "default"`), otherwise `userId` itself once validated.
 * @throws SkillError `INVALID_USER_ID` when `userId` is not 1-128 of `[A-Za-z0-9_.@-]` starting
 *   with a letter or digit
 */
export function normalizeUserId(userId: string | null | undefined): string {
  if (userId === undefined || userId === null || userId === '') return DEFAULT_USER_ID;
  if (!isValidUserId(userId)) {
    throw new SkillError(
      SkillErrorCode.InvalidUserId,
      `Invalid user id ${JSON.stringify(userId)}: use 1-128 letters, digits, '_', '.', '@' or '-', starting with a letter or digit`,
    );
  }
  return userId;
}

/**
 * Validates a skill name.
 * @throws SkillError `INVALID_SKILL_NAME`
 */
export function assertValidSkillName(name: string, context = 'skill name'): string {
  if (!isValidSkillName(name)) {
    throw new SkillError(
      SkillErrorCode.InvalidSkillName,
      `Invalid ${context} ${JSON.stringify(name)}: use 1-64 letters, digits, '_', '.' or '-', starting with a letter or digit`,
    );
  }
  return name;
}

/** Virtual path of a skill's SKILL.md: `/mnt/skills/<source>/<name>/SKILL.md`. */
export function skillVirtualPath(source: SkillSource, name: string): string {
  return `${SKILLS_VIRTUAL_ROOT}/${source}/${name}/${SKILL_FILE_NAME}`;
}
