import { ACCEPTANCE_CRITERIA_DESCRIPTION, buildTaskToolDescription } from '../../../src/prompts/task-tool-description';
import { taskToolSpec } from '../../../src/prompts/task-tool-spec';

// The `task` tool description (SPEC §7.2, §7.3 R7-R8), pinned in our wording.

const ROUTINE_OPS = 'Routine git, build, test, or deploy operations are not sufficient reason to delegate.';
const on = buildTaskToolDescription({ bashAvailable: true, receiptsEnabled: true });
const off = buildTaskToolDescription({ bashAvailable: true, receiptsEnabled: false });
const noBash = buildTaskToolDescription({ bashAvailable: false, receiptsEnabled: true });

describe('policy (R7)', () => {
  it.each([
    ['summary: bounded task, own context', 'Hand one bounded task to a specialized subagent, which works in its own context and returns a report.'],
    ['only for a clear expected benefit', 'Call it only when the expected benefit clearly exceeds the overhead of delegating.'],
    ['parallel benefit needs independent work', '- independent, non-overlapping pieces of work can run in parallel and that saves material wall-clock time;'],
    ['specialist benefit', '- a subagent brings specialist tools, skills, a model or instructions that you lack;'],
    ['isolation benefit', '- a bounded, context-heavy investigation should stay out of your own context.'],
    ['general-purpose type', '- general-purpose: bounded exploration or action with a specialist or isolation benefit, or one of several independent, non-overlapping parallel tasks.'],
    ['custom types and unknown-type error', '- custom types defined under `subagents.custom_agents`; an unknown type returns an error that lists the available types.'],
    ['not for merely complex work', '- work that is merely complex or long, with no parallel, specialist or isolation benefit;'],
    ['not for splitting dependent steps', 'Splitting dependent steps across parallel subagents'],
    ['not for overlapping state', '- scopes that touch overlapping files, shared mutable state or external side effects;'],
    ['not for user interaction', '- anything that needs interaction with the user.'],
    ['costs', 'Costs to weigh: the subagent re-discovers the repository, you coordinate, verify and synthesize its result, and a direct path may simply be cheaper.'],
    ['results are self-reports', 'What comes back is a SELF-REPORT from the subagent, not a verified fact.'],
  ])('%s', (_element, phrase) => {
    expect(on).toContain(phrase);
    expect(off).toContain(phrase);
    expect(noBash).toContain(phrase);
  });

  it('names the arguments in the order description, prompt, subagent_type, then the optional criteria', () => {
    const d = on.indexOf('`description` (3-5 words, ALWAYS FIRST)');
    const p = on.indexOf('`prompt` (the complete, self-contained task, ALWAYS SECOND)');
    const s = on.indexOf('`subagent_type` (ALWAYS THIRD)');
    const a = on.indexOf('optionally `acceptance_criteria`');
    expect(d).toBeGreaterThan(-1);
    expect(p).toBeGreaterThan(d);
    expect(s).toBeGreaterThan(p);
    expect(a).toBeGreaterThan(s);
  });
});

describe('bash type and the routine-ops sentence (R8)', () => {
  it('with bash: the bash type, its availability condition and the routine-ops sentence', () => {
    expect(on).toContain('- bash: bounded shell workflows with a clear isolation or parallel benefit;');
    expect(on).toContain('offered only when host bash is allowed or an isolated sandbox (such as AioSandboxProvider) runs the commands');
    expect(on).toContain(ROUTINE_OPS);
  });

  it('without bash: neither the type nor the sentence, and exactly one line less', () => {
    expect(noBash).not.toContain('- bash:');
    expect(noBash).not.toContain(ROUTINE_OPS);
    expect(on.split('\n').length - noBash.split('\n').length).toBe(1);
  });
});

describe('receipts', () => {
  it('on: citation example, UNVERIFIED verdict, a resolved citation does not prove the claim, spot-check', () => {
    expect(on).toContain('With verification.receipts_enabled on, action claims cite tool receipts such as [r2 read_file]');
    expect(on).toContain('claims without a citation are flagged UNVERIFIED');
    expect(on).toContain('it does not validate that the adjacent claim is correct');
    expect(on).toContain('spot-check the verifiable handles (paths, URLs, ids) you rely on');
    expect(on).not.toContain('receipt verification is disabled');
  });

  it('off: no citations, no verdict, still spot-check; no promise of verification', () => {
    expect(off).toContain('With verification.receipts_enabled off, receipt verification is disabled: reports carry no receipt citations and receive no citation verdict');
    expect(off).toContain('spot-check the verifiable handles');
    expect(off).not.toContain('UNVERIFIED');
    expect(off).not.toContain('does not validate');
    expect(off).not.toMatch(/\[r\d/);
  });

  it('both variants have the same number of lines (one sentence swapped)', () => {
    expect(on.split('\n').length).toBe(off.split('\n').length);
  });
});

describe('acceptance_criteria argument', () => {
  it('is described with both example forms', () => {
    expect(ACCEPTANCE_CRITERIA_DESCRIPTION).toContain('objectively checkable outcomes');
    expect(ACCEPTANCE_CRITERIA_DESCRIPTION).toContain('`file:<path> non-empty`');
    expect(ACCEPTANCE_CRITERIA_DESCRIPTION).toContain('`tests_passed:<command>`');
  });

  it('is optional in the tool schema the model is given, and the others are required', () => {
    const spec = taskToolSpec({ subagentNames: ['general-purpose'], receiptsEnabled: true });
    const params = spec.function.parameters as { required?: string[]; properties?: Record<string, { description?: string }> };
    expect(params.required).toEqual(['description', 'prompt', 'subagent_type']);
    expect(params.properties?.acceptance_criteria?.description).toContain('`tests_passed:<command>`');
    expect(spec.function.description).toContain('Splitting dependent steps across parallel subagents');
  });
});
