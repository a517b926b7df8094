import { AppConfigSchema, type AppConfig, type AppConfigInput } from '../../../src/config';
import type { ManagedLeadAgent, ManagedSubagent } from '../../../src/contracts';
import {
  availableSubagentNames,
  leadAgentNames,
  managedStatus,
  resolveCatalog,
  resolveLeadAgent,
  resolveSubagent,
  resolveSubagentModelName,
  subagentNames,
} from '../../../src/registry';

function config(input: AppConfigInput = {}): AppConfig {
  return AppConfigSchema.parse(input);
}

function managed(name: string, fields: Partial<ManagedSubagent> = {}): ManagedSubagent {
  return {
    name,
    description: `Managed ${name}`,
    system_prompt: `You are ${name}.`,
    tools: null,
    disallowed_tools: ['task'],
    skills: null,
    model: 'inherit',
    max_turns: 50,
    timeout_seconds: 900,
    enabled: true,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
    ...fields,
  };
}

const custom = { description: 'Research agent\nwith details', system_prompt: 'You research.' };

describe('resolution order and shadowing (SPEC §1.4)', () => {
  test('built-ins come first in order, then config custom agents, then active managed definitions', () => {
    const cfg = config({ subagents: { custom_agents: { researcher: custom } } });
    expect(subagentNames(cfg, [managed('auditor'), managed('archivist')])).toEqual([
      'general-purpose',
      'bash',
      'researcher',
      'auditor',
      'archivist',
    ]);
  });

  test('a custom agent named like a built-in is ignored: the built-in wins', () => {
    const cfg = config({ subagents: { custom_agents: { bash: custom } } });
    const bash = resolveSubagent('bash', cfg);
    expect(bash?.source).toBe('builtin');
    expect(bash?.maxTurns).toBe(60);
    expect(subagentNames(cfg)).toEqual(['general-purpose', 'bash']);
  });

  test('a managed definition whose name a built-in or config definition owns stays stored but is shadowed', () => {
    const cfg = config({ subagents: { custom_agents: { researcher: custom } } });
    const shadowedByBuiltin = managed('general-purpose', { system_prompt: 'hijack' });
    const shadowedByConfig = managed('researcher', { system_prompt: 'hijack' });
    expect(managedStatus(shadowedByBuiltin, cfg)).toBe('shadowed');
    expect(managedStatus(shadowedByConfig, cfg)).toBe('shadowed');
    expect(resolveSubagent('general-purpose', cfg, [shadowedByBuiltin])?.systemPrompt).not.toBe('hijack');
    expect(resolveSubagent('researcher', cfg, [shadowedByConfig])?.systemPrompt).toBe('You research.');
    expect(subagentNames(cfg, [shadowedByBuiltin, shadowedByConfig])).toEqual(['general-purpose', 'bash', 'researcher']);
  });

  test('disabled managed definitions are excluded', () => {
    const cfg = config();
    const off = managed('auditor', { enabled: false });
    expect(managedStatus(off, cfg)).toBe('disabled');
    expect(resolveSubagent('auditor', cfg, [off])).toBeNull();
    expect(subagentNames(cfg, [off])).not.toContain('auditor');
  });

  test('an active managed definition resolves with its own fields', () => {
    const def = resolveSubagent('auditor', config(), [managed('auditor', { max_turns: 7, timeout_seconds: 42, model: 'fast' })]);
    expect(def).toMatchObject({ name: 'auditor', source: 'managed', maxTurns: 7, timeoutSeconds: 42, model: 'fast', systemPrompt: 'You are auditor.' });
  });

  test('unknown names resolve to null', () => {
    expect(resolveSubagent('nobody', config())).toBeNull();
  });
});

describe('overrides (SPEC §1.3, §1.4 step 2)', () => {
  test('global timeout and max_turns layer onto built-ins only', () => {
    const cfg = config({ subagents: { timeout_seconds: 600, max_turns: 20, custom_agents: { researcher: custom } } });
    expect(resolveSubagent('general-purpose', cfg)).toMatchObject({ timeoutSeconds: 600, maxTurns: 20 });
    expect(resolveSubagent('researcher', cfg)).toMatchObject({ timeoutSeconds: 900, maxTurns: 50 });
    expect(resolveSubagent('auditor', cfg, [managed('auditor')])).toMatchObject({ timeoutSeconds: 900, maxTurns: 50 });
  });

  test('defaults without overrides: general-purpose 1800 s / 150 turns, bash 60 turns', () => {
    expect(resolveSubagent('general-purpose', config())).toMatchObject({ timeoutSeconds: 1800, maxTurns: 150 });
    expect(resolveSubagent('bash', config())).toMatchObject({ timeoutSeconds: 1800, maxTurns: 60 });
  });

  test('per-agent overrides win for every kind of definition', () => {
    const override = { timeout_seconds: 30, max_turns: 3, model: 'vision', skills: [] };
    const cfg = config({
      subagents: { timeout_seconds: 600, custom_agents: { researcher: custom }, agents: { 'general-purpose': override, researcher: override, auditor: override } },
    });
    for (const name of ['general-purpose', 'researcher', 'auditor']) {
      expect(resolveSubagent(name, cfg, [managed('auditor')])).toMatchObject({ timeoutSeconds: 30, maxTurns: 3, model: 'vision', skills: [] });
    }
  });

  test('resolution never mutates the built-in definitions', () => {
    const cfg = config({ subagents: { agents: { bash: { max_turns: 2 } } } });
    expect(resolveSubagent('bash', cfg)?.maxTurns).toBe(2);
    expect(resolveSubagent('bash', config())?.maxTurns).toBe(60);
  });
});

describe('catalog, host bash and caller policy', () => {
  const allowBash = { sandbox: { allow_host_bash: true } };

  test('bash is available only when host bash is allowed', () => {
    expect(availableSubagentNames(config())).toEqual(['general-purpose']);
    expect(availableSubagentNames(config(allowBash))).toEqual(['general-purpose', 'bash']);
  });

  test('allowed_subagents: null = all, [] = none, list = allowlist intersected with the catalog', () => {
    const cfg = config({ ...allowBash, subagents: { custom_agents: { researcher: custom } } });
    const names = (allowed: string[] | null) => resolveCatalog(cfg, allowed, [managed('auditor')]).map((e) => e.name);
    expect(names(null)).toEqual(['general-purpose', 'bash', 'researcher', 'auditor']);
    expect(names([])).toEqual([]);
    expect(names(['auditor', 'researcher', 'ghost'])).toEqual(['researcher', 'auditor']);
  });

  test('catalog entries carry the resolved limits', () => {
    expect(resolveCatalog(config(), null)).toEqual([{ name: 'general-purpose', timeoutSeconds: 1800, maxTurns: 150 }]);
  });
});

describe('model resolution (SPEC §1.1)', () => {
  const cfg = config({ models: [{ name: 'first', provider: 'scripted', script: 's.yaml' }, { name: 'second', provider: 'scripted', script: 's.yaml' }] });

  test('own model, else the parent model, else the first configured model', () => {
    const gp = resolveSubagent('general-purpose', cfg)!;
    expect(resolveSubagentModelName({ ...gp, model: 'second' }, 'parent', cfg)).toBe('second');
    expect(resolveSubagentModelName(gp, 'parent', cfg)).toBe('parent');
    expect(resolveSubagentModelName(gp, null, cfg)).toBe('first');
  });

  test('no configured model at all is an error', () => {
    expect(() => resolveSubagentModelName(resolveSubagent('general-purpose', config())!, null, config())).toThrow('No chat models are configured');
  });
});

describe('lead agents', () => {
  const stored: ManagedLeadAgent = {
    name: 'writer',
    description: 'Writes',
    system_prompt: 'Write well.',
    model: null,
    allowed_subagents: [],
    skills: null,
    tools: null,
    clarification_timeout_seconds: 86_400,
    max_turns: 9,
    created_at: '2026-01-01T00:00:00Z',
    updated_at: '2026-01-01T00:00:00Z',
  };

  test('config owns a name; a stored definition of the same name is shadowed', () => {
    const cfg = config({ agents: { writer: { allowed_subagents: ['bash'] } } });
    expect(resolveLeadAgent('writer', cfg, [stored])).toMatchObject({ source: 'config', allowed_subagents: ['bash'] });
    expect(leadAgentNames(cfg, [stored])).toEqual(['writer']);
  });

  test('stored lead agents resolve when config does not define them', () => {
    expect(resolveLeadAgent('writer', config(), [stored])).toMatchObject({ source: 'managed', allowed_subagents: [], max_turns: 9 });
    expect(resolveLeadAgent('ghost', config(), [stored])).toBeNull();
  });
});
