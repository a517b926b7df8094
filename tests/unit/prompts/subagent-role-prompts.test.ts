import {
  BASH_DESCRIPTION,
  BASH_SYSTEM_PROMPT,
  GENERAL_PURPOSE_DESCRIPTION,
  GENERAL_PURPOSE_SYSTEM_PROMPT,
} from '../../../src/prompts/subagent-role-prompts';

// Built-in role descriptions and system prompts (SPEC §1.2, §7.3 R7, R8, S5-S7).

const EXAMPLES = ['`hello.txt`', '`../uploads/input.csv`', '`../outputs/result.md`'];

describe('general-purpose description (R7)', () => {
  it.each([
    ['clear delegation benefit', 'clear delegation benefit'],
    ['specialist benefit', 'specialist tools, skills, a different model or focused instructions materially improve the result'],
    ['one independent part of parallel work', 'one independent, non-overlapping part of genuinely parallel work'],
    ['context isolation', 'a bounded, context-heavy investigation should stay out of the lead context'],
    ['sequential work is not a veto', 'merely because it is sequential'],
    ['a dependent chain may go to one subagent', 'bounded dependent chain may still be delegated'],
    ['not for duplicate discovery', 'repeat repository discovery the lead already did'],
    ['not for overlapping side effects', 'its side effects would overlap other work'],
  ])('%s', (_element, phrase) => {
    expect(GENERAL_PURPOSE_DESCRIPTION).toContain(phrase);
  });
});

describe('bash description (R8)', () => {
  it.each([
    ['clear benefit', 'bounded shell workflows with a clear delegation benefit'],
    ['context displacement', 'the logs and state of many commands would crowd the lead context'],
    ['independent parallel workload', 'an independent, non-overlapping shell workload that runs in parallel'],
    ['justified sequential chain', 'keeping a justified sequential chain of commands in one isolated context lowers coordination cost'],
    ['routine-ops sentence', 'Routine git, build, test, or deploy operations are not sufficient reason to delegate.'],
    ['direct bash when cheaper', 'Run them directly with bash when that is cheaper.'],
  ])('%s', (_element, phrase) => {
    expect(BASH_DESCRIPTION).toContain(phrase);
  });
});

describe('general-purpose system prompt (S6, S7)', () => {
  it('S7: the task tool is unavailable and must never be called', () => {
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT.toLowerCase()).toContain('task');
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain('The `task` tool is NOT available to you');
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain('you must NEVER try to call `task` or dispatch other subagents');
  });

  it('S7: does not leak the internal config word', () => {
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).not.toContain('disallowed_tools');
  });

  it.each(['<guidelines>', '<tool_restrictions>', '<file_editing_workflow>', '<output_format>', '<working_directory>'])('has the %s block', (tag) => {
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain(tag);
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain(tag.replace('<', '</'));
  });

  it.each([
    ['never asks for clarification', 'Never ask for clarification'],
    ['parallelism without subagents', 'use background processes or do them one after another'],
    ['edit with str_replace', 'prefer `str_replace` over rewriting it with `write_file`'],
    ['long files in appended sections', 'then add the remaining sections one by one with `write_file` and `append: true`'],
    ['web citations', '[citation:Title](URL)'],
  ])('%s', (_element, phrase) => {
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain(phrase);
  });

  it('S6: the workspace is the default directory for coding and file IO, with relative-path examples', () => {
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain('Treat `/mnt/user-data/workspace` as the default working directory for coding and file IO.');
    for (const example of EXAMPLES) expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain(example);
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain('/mnt/user-data/uploads');
    expect(GENERAL_PURPOSE_SYSTEM_PROMPT).toContain('/mnt/user-data/outputs');
  });
});

describe('bash system prompt (R8, S5)', () => {
  it('R8: dependent commands run one at a time', () => {
    expect(BASH_SYSTEM_PROMPT).toContain('Execute commands one at a time when they depend on each other');
    expect(BASH_SYSTEM_PROMPT).toContain('run independent commands together when that is safe');
  });

  it('S5: the workspace is the default directory for file IO, with relative-path examples', () => {
    expect(BASH_SYSTEM_PROMPT).toContain('Treat `/mnt/user-data/workspace` as the default working directory for file IO.');
    for (const example of EXAMPLES) expect(BASH_SYSTEM_PROMPT).toContain(example);
  });

  it('reports what ran and how it went', () => {
    expect(BASH_SYSTEM_PROMPT).toContain('Report: the commands you ran, whether each succeeded, the relevant output, and any errors or warnings.');
    expect(BASH_SYSTEM_PROMPT).not.toContain('disallowed_tools');
  });
});
