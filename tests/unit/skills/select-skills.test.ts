import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { SkillErrorCode, intersectSkillAllowlists, isSkillError, loadSubagentSkills, selectSubagentSkills } from '../../../src/skills';
import type { SkillMetadata } from '../../../src/skills';
import { FIXTURE_DATA_DIR, makeTempDataDir, rejectionOf, writeSkill } from './helpers';

function skill(name: string, enabled = true): SkillMetadata {
  return { name, description: `About ${name}.`, path: `/mnt/skills/public/${name}/SKILL.md`, allowedTools: null, enabled, source: 'public' };
}
const names = (skills: readonly SkillMetadata[]) => skills.map((s) => s.name);

describe('intersectSkillAllowlists (SPEC §1.6)', () => {
  it('parent null → the child', () => {
    expect(intersectSkillAllowlists(null, null)).toBeNull();
    expect(intersectSkillAllowlists(null, ['b', 'a'])).toEqual(['b', 'a']);
    expect(intersectSkillAllowlists(null, [])).toEqual([]);
  });

  it('child null → a copy of the parent', () => {
    const parent = ['a', 'b'];
    const result = intersectSkillAllowlists(parent, null);
    expect(result).toEqual(['a', 'b']);
    expect(result).not.toBe(parent);
  });

  it('both lists → child entries present in the parent, in child order', () => {
    expect(intersectSkillAllowlists(['a', 'b', 'c'], ['c', 'x', 'a'])).toEqual(['c', 'a']);
    expect(intersectSkillAllowlists(['a'], ['x'])).toEqual([]);
  });

  it('an empty list on either side → no skills', () => {
    expect(intersectSkillAllowlists([], ['a'])).toEqual([]);
    expect(intersectSkillAllowlists([], null)).toEqual([]);
    expect(intersectSkillAllowlists(['a'], [])).toEqual([]);
  });
});

describe('selectSubagentSkills', () => {
  const all = [skill('a'), skill('b', false), skill('c')];

  it('[] → none, null → every enabled skill, list → enabled listed skills in catalog order', () => {
    expect(selectSubagentSkills(all, [])).toEqual([]);
    expect(names(selectSubagentSkills(all, null))).toEqual(['a', 'c']);
    expect(names(selectSubagentSkills(all, ['c', 'b', 'a', 'unknown']))).toEqual(['a', 'c']);
  });
});

describe('loadSubagentSkills', () => {
  afterEach(() => jest.restoreAllMocks());

  it('with [] never touches the file system (missing data dir, invalid user id, no error)', async () => {
    const spies = (['readdir', 'readFile', 'access', 'stat', 'realpath'] as const).map((m) => jest.spyOn(fs, m));
    const missing = path.join(FIXTURE_DATA_DIR, 'does-not-exist');
    await expect(loadSubagentSkills({ dataDir: missing, userId: 'alice', allowlist: [] })).resolves.toEqual([]);
    await expect(loadSubagentSkills({ dataDir: missing, userId: '../evil', allowlist: [] })).resolves.toEqual([]);
    for (const spy of spies) expect(spy).not.toHaveBeenCalled();
  });

  it('with [] ignores a data dir whose skills would fail to load', async () => {
    const dataDir = await makeTempDataDir();
    try {
      await writeSkill(dataDir, 'skills/public/broken', 'no front matter');
      await expect(loadSubagentSkills({ dataDir, allowlist: [] })).resolves.toEqual([]);
      const err = await rejectionOf(loadSubagentSkills({ dataDir, allowlist: null }));
      expect(isSkillError(err, SkillErrorCode.MalformedSkill)).toBe(true);
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });

  it("loads the user's enabled skills and applies the allowlist", async () => {
    expect(names(await loadSubagentSkills({ dataDir: FIXTURE_DATA_DIR, userId: 'alice', allowlist: null }))).toEqual(['alice-only', 'pdf', 'web-research']);
    const listed = await loadSubagentSkills({ dataDir: FIXTURE_DATA_DIR, userId: 'alice', allowlist: ['pdf', 'legacy-tool', 'bob-only'] });
    expect(listed.map((s) => `${s.source}:${s.name}`)).toEqual(['user:pdf']);
    expect(names(await loadSubagentSkills({ dataDir: FIXTURE_DATA_DIR, allowlist: null }))).toEqual(['default-only', 'pdf', 'web-research']);
  });

  it('rejects an invalid user id when skills are on', async () => {
    const err = await rejectionOf(loadSubagentSkills({ dataDir: FIXTURE_DATA_DIR, userId: '../alice', allowlist: null }));
    expect(isSkillError(err, SkillErrorCode.InvalidUserId)).toBe(true);
  });
});
