import { getOrNewUserSkillStorage } from './user-skill-storage';
import type { SkillMetadata } from './user-skill-storage';

/**
 * Combines the run's skill allowlist (the parent's `available_skills` snapshot) with a subagent's
 * `skills` (SPEC §1.6). `null` means "no restriction", `[]` means "no skills".
 * - parent `null` → `child` (a copy);
 * - child `null` → a copy of `parent`;
 * - both lists → the child's entries that the parent also allows, in the child's order.
 *
 * Pure; never returns one of its arguments, so callers may keep the result.
 */
export function intersectSkillAllowlists(
  parent: readonly string[] | null,
  child: readonly string[] | null,
): readonly string[] | null {
  if (parent === null) return child === null ? null : [...child];
  if (child === null) return [...parent];
  const allowed = new Set(parent);
  return child.filter((name) => allowed.has(name));
}

/**
 * The skills a subagent may discover (pure):
 * - `[]` → none;
 * - `null` → every enabled skill;
 * - a list → the enabled skills whose name is listed (names that match no skill are ignored).
 *
 * The order of `all` is kept (by name when it comes from {@link UserSkillStorage.listSkills}).
 */
export function selectSubagentSkills(
  all: readonly SkillMetadata[],
  allowlist: readonly string[] | null,
): readonly SkillMetadata[] {
  if (allowlist !== null && allowlist.length === 0) return [];
  const enabled = all.filter((skill) => skill.enabled);
  if (allowlist === null) return enabled;
  const listed = new Set(allowlist);
  return enabled.filter((skill) => listed.has(skill.name));
}

/** Input of {@link loadSubagentSkills}. */
export interface LoadSubagentSkillsOptions {
  /** `store.data_dir`. */
  readonly dataDir: string;
  /** The parent run's user; {@link DEFAULT_USER_ID} when absent. */
  readonly userId?: string | null;
  /** Usually `intersectSkillAllowlists(run's available_skills, subagent.skills)`. */
  readonly allowlist: readonly string[] | null;
}

/**
 * Loads the skills a subagent may discover, scoped to the parent run's user. With an allowlist of
 * `[]` it returns `[]` without validating the user id or touching the file system (skills off).
 * @throws SkillError `INVALID_USER_ID`, or any error of {@link UserSkillStorage.listSkills}: load
 *   errors propagate so the task fails instead of running with a silently shorter skill list
 */
export async function loadSubagentSkills(options: LoadSubagentSkillsOptions): Promise<readonly SkillMetadata[]> {
  if (options.allowlist !== null && options.allowlist.length === 0) return [];
  const storage = getOrNewUserSkillStorage(options.dataDir, options.userId);
  return selectSubagentSkills(await storage.listSkills(), options.allowlist);
}
