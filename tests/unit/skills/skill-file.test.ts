import { SkillErrorCode, isSkillError, parseSkillFile } from '../../../src/skills';
import type { SkillError } from '../../../src/skills';
import { thrownBy } from './helpers';

const AT = { file: '/mnt/skills/user/demo/SKILL.md', hostPath: '/data/users/u/skills/demo/SKILL.md' };

function malformed(text: string): SkillError {
  const err = thrownBy(() => parseSkillFile(text, AT));
  if (!isSkillError(err, SkillErrorCode.MalformedSkill)) throw new Error(`expected MALFORMED_SKILL, got ${String(err)}`);
  return err;
}

describe('parseSkillFile', () => {
  it('reads name, description, allowed_tools, enabled and the body', () => {
    const parsed = parseSkillFile(
      '---\nname: demo\ndescription: Does a demo.\nallowed_tools: [bash, read_file]\nenabled: false\nlicense: MIT\n---\n\n# Demo\nStep one.\n',
      AT,
    );
    expect(parsed.frontMatter).toEqual({ name: 'demo', description: 'Does a demo.', allowed_tools: ['bash', 'read_file'], enabled: false });
    expect(parsed.body).toBe('# Demo\nStep one.');
  });

  it('defaults allowed_tools to null and enabled to true; keeps an explicit empty tool list', () => {
    expect(parseSkillFile('---\nname: demo\ndescription: d\n---\n', AT).frontMatter).toEqual({
      name: 'demo',
      description: 'd',
      allowed_tools: null,
      enabled: true,
    });
    expect(parseSkillFile('---\nname: demo\ndescription: d\nallowed_tools: []\n---\n', AT).frontMatter.allowed_tools).toEqual([]);
  });

  it('accepts CRLF line ends, a BOM, a body-less file, and the `allowed-tools` spelling', () => {
    const parsed = parseSkillFile('\uFEFF---\r\nname: demo\r\ndescription: d\r\nallowed-tools:\r\n  - bash\r\n---', AT);
    expect(parsed.frontMatter.allowed_tools).toEqual(['bash']);
    expect(parsed.body).toBe('');
  });

  it('rejects a file without front matter, naming the file', () => {
    const err = malformed('# Just markdown\n');
    expect(err.field).toBe('front matter');
    expect(err.file).toBe(AT.file);
    expect(err.hostPath).toBe(AT.hostPath);
    expect(err.message).toContain(AT.file);
    expect(err.message).not.toContain(AT.hostPath);
  });

  it('rejects invalid YAML and a front matter that is not a mapping', () => {
    expect(malformed('---\nname: [unclosed\n---\n').message).toMatch(/field "front matter": invalid YAML/);
    expect(malformed('---\n- a\n- b\n---\n').field).toBe('front matter');
    expect(malformed('---\n---\nbody\n').field).toBe('front matter');
  });

  it.each([
    ['a missing description', '---\nname: demo\n---\n', 'description', 'description is required'],
    ['a blank description', '---\nname: demo\ndescription: "  "\n---\n', 'description', 'description must not be empty'],
    ['a numeric name', '---\nname: 42\ndescription: d\n---\n', 'name', 'name must be a string'],
    ['an unsafe name', '---\nname: ../escape\ndescription: d\n---\n', 'name', 'name must be 1-64'],
    ['allowed_tools not a list', '---\nname: demo\ndescription: d\nallowed_tools: bash\n---\n', 'allowed_tools', 'must be a list'],
    ['a non-string tool', '---\nname: demo\ndescription: d\nallowed_tools: [bash, 7]\n---\n', 'allowed_tools.1', 'a tool name must be a string'],
    ['enabled not a boolean', '---\nname: demo\ndescription: d\nenabled: "yes"\n---\n', 'enabled', 'enabled must be true or false'],
  ])('rejects %s, naming file and field', (_case, text, field, reason) => {
    const err = malformed(text);
    expect(err.name).toBe('SkillError');
    expect(err.field).toBe(field);
    expect(err.message).toContain(`Invalid ${AT.file}: field "${field}": `);
    expect(err.message).toContain(reason);
  });

  it('rejects both spellings of allowed tools at once', () => {
    expect(malformed('---\nname: demo\ndescription: d\nallowed_tools: []\nallowed-tools: []\n---\n').field).toBe('allowed_tools');
  });
});
