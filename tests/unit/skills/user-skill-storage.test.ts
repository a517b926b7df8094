import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { DEFAULT_USER_ID, SkillErrorCode, UserSkillStorage, getOrNewUserSkillStorage, isSkillError } from '../../../src/skills';
import { FIXTURE_DATA_DIR, makeTempDataDir, rejectionOf, skillText, thrownBy, writeSkill } from './helpers';

const summary = (s: { name: string; source: string }) => `${s.source}:${s.name}`;

describe('UserSkillStorage.listSkills', () => {
  it('lists public and user skills as metadata, sorted by name, with virtual paths', async () => {
    const skills = await getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'alice').listSkills();
    expect(skills.map(summary)).toEqual(['user:alice-only', 'public:legacy-tool', 'user:pdf', 'public:web-research']);
    expect(skills.find((s) => s.name === 'web-research')).toEqual({
      name: 'web-research',
      description: 'Research a topic on the web and cite every source.\nSecond line that must not reach the prompt.',
      path: '/mnt/skills/public/web-research/SKILL.md',
      allowedTools: ['web_search', 'web_fetch'],
      enabled: true,
      source: 'public',
    });
    expect(skills.find((s) => s.name === 'legacy-tool')?.enabled).toBe(false);
    // Metadata only: no body anywhere in what is listed.
    expect(JSON.stringify(skills)).not.toMatch(/BODY/);
  });

  it("shadows a public skill with the user's skill of the same name", async () => {
    const pdf = (await getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'alice').listSkills()).find((s) => s.name === 'pdf');
    expect(pdf).toMatchObject({ source: 'user', description: "Alice's own PDF workflow.", path: '/mnt/skills/user/pdf/SKILL.md', allowedTools: ['read_file', 'bash'] });
  });

  it("keeps users apart: alice never sees bob's skills and bob sees the public pdf", async () => {
    const alice = (await getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'alice').listSkills()).map(summary);
    const bob = (await getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'bob').listSkills()).map(summary);
    expect(alice).not.toContain('user:bob-only');
    expect(bob).toEqual(['user:bob-only', 'public:legacy-tool', 'public:pdf', 'public:web-research']);
    expect(bob.some((s) => s.includes('alice'))).toBe(false);
  });

  it('uses the `default` user when no user id is given', async () => {
    for (const userId of [undefined, null, '']) {
      const storage = getOrNewUserSkillStorage(FIXTURE_DATA_DIR, userId);
      expect(storage.userId).toBe(DEFAULT_USER_ID);
      expect((await storage.listSkills()).map(summary)).toContain('user:default-only');
    }
  });

  it('rejects user ids that are not safe folder names, before any disk access', () => {
    for (const userId of ['..', '.hidden', 'a/b', 'a\\b', '../alice', 'x\0', ' alice', 'a'.repeat(129)]) {
      const err = thrownBy(() => getOrNewUserSkillStorage('/does/not/exist', userId));
      expect(isSkillError(err, SkillErrorCode.InvalidUserId)).toBe(true);
    }
    expect(getOrNewUserSkillStorage('/does/not/exist', 'alice@example.com').userId).toBe('alice@example.com');
    expect(isSkillError(thrownBy(() => new UserSkillStorage('/x', '../bob')), SkillErrorCode.InvalidUserId)).toBe(true);
  });

  it('treats missing skill folders as empty', async () => {
    expect(await getOrNewUserSkillStorage(path.join(FIXTURE_DATA_DIR, 'nope'), 'alice').listSkills()).toEqual([]);
  });
});

describe('UserSkillStorage errors on disk', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await makeTempDataDir();
  });
  afterEach(() => fs.rm(dataDir, { recursive: true, force: true }));

  it('throws on a malformed SKILL.md, naming the virtual file and the field', async () => {
    await writeSkill(dataDir, 'skills/public/good', skillText('good'));
    await writeSkill(dataDir, 'users/u1/skills/broken', '---\nname: broken\n---\nbody\n');
    const err = await rejectionOf(getOrNewUserSkillStorage(dataDir, 'u1').listSkills());
    if (!isSkillError(err, SkillErrorCode.MalformedSkill)) throw err;
    expect(err.message).toBe('Invalid /mnt/skills/user/broken/SKILL.md: field "description": description is required');
    expect(err.file).toBe('/mnt/skills/user/broken/SKILL.md');
    expect(err.field).toBe('description');
    expect(err.hostPath).toBe(path.join(dataDir, 'users', 'u1', 'skills', 'broken', 'SKILL.md'));
  });

  it('requires the front-matter name to match the folder name', async () => {
    await writeSkill(dataDir, 'skills/public/folder-name', skillText('other-name'));
    const err = await rejectionOf(getOrNewUserSkillStorage(dataDir, 'u1').listSkills());
    expect(err).toMatchObject({ code: 'MALFORMED_SKILL', field: 'name', file: '/mnt/skills/public/folder-name/SKILL.md' });
  });

  it('rejects a skill folder whose name is not a valid skill name', async () => {
    await writeSkill(dataDir, 'skills/public/bad name', skillText('bad name'));
    expect(isSkillError(await rejectionOf(getOrNewUserSkillStorage(dataDir, 'u1').listSkills()), SkillErrorCode.InvalidSkillName)).toBe(true);
  });

  it('does not read a public skill that the user shadows', async () => {
    await writeSkill(dataDir, 'skills/public/pdf', 'not a skill file');
    await writeSkill(dataDir, 'users/u1/skills/pdf', skillText('pdf'));
    expect((await getOrNewUserSkillStorage(dataDir, 'u1').listSkills()).map(summary)).toEqual(['user:pdf']);
    expect(isSkillError(await rejectionOf(getOrNewUserSkillStorage(dataDir, 'u2').listSkills()), SkillErrorCode.MalformedSkill)).toBe(true);
  });

  it('ignores hidden folders, plain files and folders without a SKILL.md', async () => {
    await writeSkill(dataDir, 'users/u1/skills/.history', 'garbage');
    await fs.mkdir(path.join(dataDir, 'users', 'u1', 'skills', 'empty'), { recursive: true });
    await fs.writeFile(path.join(dataDir, 'users', 'u1', 'skills', '_skill_states.json'), '{}');
    await writeSkill(dataDir, 'users/u1/skills/real', skillText('real'));
    expect((await getOrNewUserSkillStorage(dataDir, 'u1').listSkills()).map(summary)).toEqual(['user:real']);
  });
});

describe('UserSkillStorage.readSkillBody', () => {
  it("reads the body on demand, the user's own skill first", async () => {
    const alice = getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'alice');
    expect(await alice.readSkillBody('pdf')).toBe('ALICE-PDF-BODY');
    expect(await alice.readSkillBody('web-research')).toBe('# Web research\n\nPUBLIC-WEB-RESEARCH-BODY: search, read, cite.');
    expect(await getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'bob').readSkillBody('pdf')).toBe('PUBLIC-PDF-BODY');
  });

  it("refuses unknown skills, another user's skills and unsafe names", async () => {
    const bob = getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'bob');
    expect(isSkillError(await rejectionOf(bob.readSkillBody('alice-only')), SkillErrorCode.SkillNotFound)).toBe(true);
    expect(isSkillError(await rejectionOf(bob.readSkillBody('nope')), SkillErrorCode.SkillNotFound)).toBe(true);
    expect(isSkillError(await rejectionOf(bob.readSkillBody('../alice/skills/pdf')), SkillErrorCode.InvalidSkillName)).toBe(true);
  });
});

describe('UserSkillStorage.resolveVirtualPath', () => {
  const alice = getOrNewUserSkillStorage(FIXTURE_DATA_DIR, 'alice');

  it('maps /mnt/skills paths to the host files of this user', async () => {
    expect(await alice.resolveVirtualPath('/mnt/skills/user/pdf/SKILL.md')).toBe(path.join(FIXTURE_DATA_DIR, 'users', 'alice', 'skills', 'pdf', 'SKILL.md'));
    expect(await alice.resolveVirtualPath('/mnt/skills/public/pdf/SKILL.md')).toBe(path.join(FIXTURE_DATA_DIR, 'skills', 'public', 'pdf', 'SKILL.md'));
  });

  it('refuses paths outside a skill folder and missing files', async () => {
    for (const p of ['/mnt/user-data/x', '/mnt/skills/other/pdf/SKILL.md', '/mnt/skills/user/../../etc/passwd', '/mnt/skills/user', 'skills/user/pdf/SKILL.md', '/mnt/skills/user/pdf\0']) {
      expect([p, isSkillError(await rejectionOf(alice.resolveVirtualPath(p)), SkillErrorCode.InvalidSkillPath)]).toEqual([p, true]);
    }
    expect(isSkillError(await rejectionOf(alice.resolveVirtualPath('/mnt/skills/user/bob-only/SKILL.md')), SkillErrorCode.SkillNotFound)).toBe(true);
  });

  it('refuses symlinks that leave the skill folder or the skills root', async () => {
    const dataDir = await makeTempDataDir();
    try {
      await writeSkill(dataDir, 'users/u1/skills/s', skillText('s'));
      await fs.writeFile(path.join(dataDir, 'secret.txt'), 'secret');
      await fs.symlink(path.join(dataDir, 'secret.txt'), path.join(dataDir, 'users', 'u1', 'skills', 's', 'link.txt'));
      const u1 = getOrNewUserSkillStorage(dataDir, 'u1');
      expect(isSkillError(await rejectionOf(u1.resolveVirtualPath('/mnt/skills/user/s/link.txt')), SkillErrorCode.InvalidSkillPath)).toBe(true);
      await fs.mkdir(path.join(dataDir, 'outside'));
      await fs.writeFile(path.join(dataDir, 'outside', 'SKILL.md'), skillText('linked'));
      await fs.symlink(path.join(dataDir, 'outside'), path.join(dataDir, 'users', 'u1', 'skills', 'linked'));
      expect(isSkillError(await rejectionOf(u1.resolveVirtualPath('/mnt/skills/user/linked/SKILL.md')), SkillErrorCode.InvalidSkillPath)).toBe(true);
      expect(await u1.resolveVirtualPath('/mnt/skills/user/s/SKILL.md')).toBe(path.join(dataDir, 'users', 'u1', 'skills', 's', 'SKILL.md'));
    } finally {
      await fs.rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('UserSkillStorage reads a SKILL.md again only when it changed', () => {
  let dataDir: string;
  beforeEach(async () => {
    dataDir = await makeTempDataDir();
  });
  afterEach(async () => {
    jest.restoreAllMocks();
    await fs.rm(dataDir, { recursive: true, force: true });
  });

  const descriptions = async (userId = 'u1') => (await getOrNewUserSkillStorage(dataDir, userId).listSkills()).map((s) => `${s.name}: ${s.description}`);

  it('lists an unchanged skill without reading it again, and an edited, added or removed one at once', async () => {
    const file = await writeSkill(dataDir, 'users/u1/skills/s', skillText('s', 'First.'));
    const reads = jest.spyOn(fs, 'readFile');
    expect(await descriptions()).toEqual(['s: First.']);
    expect(await descriptions()).toEqual(['s: First.']);
    expect(reads).toHaveBeenCalledTimes(1);
    // Same size, new content: the modification time tells it apart.
    await fs.writeFile(file, skillText('s', 'Again.'));
    const later = new Date(Date.now() + 5000);
    await fs.utimes(file, later, later);
    expect(await descriptions()).toEqual(['s: Again.']);
    await writeSkill(dataDir, 'users/u1/skills/t', skillText('t', 'Added.'));
    expect(await descriptions()).toEqual(['s: Again.', 't: Added.']);
    await fs.rm(path.dirname(file), { recursive: true });
    expect(await descriptions()).toEqual(['t: Added.']);
    expect(await getOrNewUserSkillStorage(dataDir, 'u1').readSkillBody('t')).toBe('Body of t.');
    expect(reads).toHaveBeenCalledTimes(3);
  });

  it('a skill that was malformed is read again, and listed once it is mended', async () => {
    const file = await writeSkill(dataDir, 'users/u1/skills/s', '---\nname: s\n---\nbody\n');
    expect(isSkillError(await rejectionOf(getOrNewUserSkillStorage(dataDir, 'u1').listSkills()), SkillErrorCode.MalformedSkill)).toBe(true);
    await fs.writeFile(file, skillText('s', 'Mended.'));
    expect(await descriptions()).toEqual(['s: Mended.']);
  });

  it('a missing skills folder is an empty list, and one created later is listed', async () => {
    expect(await descriptions()).toEqual([]);
    await writeSkill(dataDir, 'skills/public/p', skillText('p', 'Public.'));
    expect(await descriptions()).toEqual(['p: Public.']);
  });
});
