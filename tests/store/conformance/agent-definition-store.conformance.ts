import { ManagedLeadAgentSchema, ManagedSubagentSchema, type ManagedSubagentInput } from '../../../src/contracts/agent-definitions';
import { isAgentDefinitionError, type AgentDefinitionError } from '../../../src/store';
import { ISO_UTC, useStores, type StoresInit } from './fixtures';

const researcher: ManagedSubagentInput = { name: 'researcher', description: 'Finds sources', system_prompt: 'You research.' };

/** Rejects with an AgentDefinitionError of `code` whose message contains `text`. */
async function expectRefused(p: Promise<unknown>, code: AgentDefinitionError['code'], text: string): Promise<AgentDefinitionError> {
  const err: unknown = await p.then(
    () => new Error('expected a rejection'),
    (e: unknown) => e,
  );
  if (!isAgentDefinitionError(err, code)) throw new Error(`expected AgentDefinitionError ${code}, got ${String(err)}`);
  expect(err.name).toBe('AgentDefinitionError');
  expect(err.message).toContain(text);
  return err;
}

/** AgentDefinitionStore contract: validated writes, create/update/enable/remove rules, name order. */
export function agentDefinitionStoreSpec(init: StoresInit): void {
  describe('AgentDefinitionStore', () => {
    const stores = useStores(init);
    const agents = () => stores().agents;

    it('createSubagent stores the validated input with defaults and UTC timestamps', async () => {
      const created = await agents().createSubagent({ ...researcher, name: '  researcher ' });
      expect(created).toEqual({
        name: 'researcher',
        description: 'Finds sources',
        system_prompt: 'You research.',
        tools: null,
        disallowed_tools: ['task', 'ask_clarification', 'present_files'],
        skills: null,
        model: 'inherit',
        max_turns: 50,
        timeout_seconds: 900,
        enabled: true,
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: created.created_at,
      });
      expect(ManagedSubagentSchema.parse(created)).toEqual(created);
      expect(await agents().getSubagent('researcher')).toEqual(created);
      expect(await agents().listSubagents()).toEqual([created]);
      expect(await agents().getSubagent('nobody')).toBeNull();
    });

    it('createSubagent of a taken name is already_exists and keeps the original', async () => {
      const original = await agents().createSubagent(researcher);
      const err = await expectRefused(agents().createSubagent({ ...researcher, description: 'Other' }), 'already_exists', 'subagent "researcher" already exists');
      expect(err.agentName).toBe('researcher');
      expect(await agents().listSubagents()).toEqual([original]);
    });

    it.each<[string, unknown]>([
      ['max_turns: must be >= 1', { ...researcher, max_turns: 0 }],
      ['timeout_seconds: must be an integer', { ...researcher, timeout_seconds: 1.5 }],
      ['name: must be 1-64 lowercase letters', { ...researcher, name: 'Bad Name' }],
      ['description: must not be empty', { ...researcher, description: '  ' }],
      ['tools.1: must not be empty', { ...researcher, tools: ['bash', ''] }],
      ['colour: unknown field', { ...researcher, colour: 'red' }],
      ['system_prompt: is required', { name: 'researcher', description: 'x' }],
    ])('refuses invalid input naming the field (%s) and stores nothing', async (text, input) => {
      const err = await expectRefused(agents().createSubagent(input as ManagedSubagentInput), 'invalid', text);
      expect(err.issues.some((issue) => issue.startsWith(text))).toBe(true);
      expect(await agents().listSubagents()).toEqual([]);
    });

    it('an input that is not an object is invalid', async () => {
      await expectRefused(agents().createSubagent(null as unknown as ManagedSubagentInput), 'invalid', 'input: must be an object');
    });

    it('updateSubagent replaces every field but name and created_at', async () => {
      const created = await agents().createSubagent({ ...researcher, enabled: false, tools: ['bash'] });
      const updated = await agents().updateSubagent({ ...researcher, description: 'Deeper', max_turns: 7 });
      expect(updated).toMatchObject({ name: 'researcher', description: 'Deeper', max_turns: 7, tools: null, enabled: true });
      expect(updated.created_at).toBe(created.created_at);
      expect(updated.updated_at >= created.updated_at).toBe(true);
      expect(await agents().getSubagent('researcher')).toEqual(updated);
    });

    it('updateSubagent of an unknown name is not_found; invalid input changes nothing', async () => {
      await expectRefused(agents().updateSubagent({ ...researcher, name: 'ghost' }), 'not_found', 'subagent "ghost" not found');
      const created = await agents().createSubagent(researcher);
      await expectRefused(agents().updateSubagent({ ...researcher, max_turns: 0 }), 'invalid', 'max_turns: must be >= 1');
      expect(await agents().getSubagent('researcher')).toEqual(created);
      expect(await agents().listSubagents()).toHaveLength(1);
    });

    it('setSubagentEnabled disables and enables, keeping the other fields', async () => {
      const created = await agents().createSubagent({ ...researcher, max_turns: 9 });
      const disabled = await agents().setSubagentEnabled('researcher', false);
      expect(disabled).toEqual({ ...created, enabled: false, updated_at: expect.stringMatching(ISO_UTC) });
      expect((await agents().getSubagent('researcher'))?.enabled).toBe(false);
      expect((await agents().setSubagentEnabled('researcher', true)).enabled).toBe(true);
      await expectRefused(agents().setSubagentEnabled('ghost', true), 'not_found', 'subagent "ghost" not found');
    });

    it('removeSubagent reports whether there was something to remove; the name can be reused', async () => {
      await agents().createSubagent(researcher);
      expect(await agents().removeSubagent('researcher')).toBe(true);
      expect(await agents().removeSubagent('researcher')).toBe(false);
      expect(await agents().getSubagent('researcher')).toBeNull();
      expect((await agents().createSubagent(researcher)).name).toBe('researcher');
    });

    it('lists subagents and lead agents by name in code-point order', async () => {
      const names = ['b', 'a-c', 'ab', 'a_b', 'a1', 'a'];
      for (const name of names) {
        await agents().createSubagent({ ...researcher, name });
        await agents().putLeadAgent({ name });
      }
      const sorted = ['a', 'a-c', 'a1', 'a_b', 'ab', 'b'];
      expect((await agents().listSubagents()).map((a) => a.name)).toEqual(sorted);
      expect((await agents().listLeadAgents()).map((a) => a.name)).toEqual(sorted);
    });

    it('putLeadAgent creates with defaults, then replaces keeping created_at; get and remove', async () => {
      const created = await agents().putLeadAgent({ name: 'lead' });
      expect(created).toEqual({
        name: 'lead',
        description: '',
        system_prompt: null,
        model: null,
        allowed_subagents: null,
        skills: null,
        max_turns: 50,
        tools: null,
        clarification_timeout_seconds: 86_400,
        created_at: expect.stringMatching(ISO_UTC),
        updated_at: created.created_at,
      });
      expect(ManagedLeadAgentSchema.parse(created)).toEqual(created);
      const replaced = await agents().putLeadAgent({ name: 'lead', allowed_subagents: [], system_prompt: 'Lead.', tools: ['read_file'] });
      expect(replaced).toMatchObject({ allowed_subagents: [], system_prompt: 'Lead.', tools: ['read_file'], created_at: created.created_at });
      expect(replaced.updated_at >= created.updated_at).toBe(true);
      expect(await agents().getLeadAgent('lead')).toEqual(replaced);
      expect(await agents().listLeadAgents()).toEqual([replaced]);
      expect(await agents().listSubagents()).toEqual([]);
      expect(await agents().removeLeadAgent('lead')).toBe(true);
      expect(await agents().removeLeadAgent('lead')).toBe(false);
      expect(await agents().getLeadAgent('lead')).toBeNull();
    });

    it('putLeadAgent with invalid input is refused and changes nothing', async () => {
      const kept = await agents().putLeadAgent({ name: 'lead', allowed_subagents: ['researcher'] });
      await expectRefused(agents().putLeadAgent({ name: 'lead', allowed_subagents: ['Not A Name'] }), 'invalid', 'allowed_subagents.0: must be 1-64');
      await expectRefused(agents().putLeadAgent({ name: 'lead', max_turns: 0 }), 'invalid', 'lead agent "lead": max_turns: must be >= 1');
      await expectRefused(agents().putLeadAgent({ name: 'other', max_turns: 0 }), 'invalid', 'max_turns: must be >= 1');
      expect(await agents().listLeadAgents()).toEqual([kept]);
    });
  });
}
