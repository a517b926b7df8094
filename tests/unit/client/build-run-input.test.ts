import {
  DEFAULT_AGENT_NAME,
  DEFAULT_MAX_TASK_ATTEMPTS,
  MAX_CONCURRENT_CEILING,
  buildLeadRunInput,
  type RunRequest,
} from '../../../src/client/build-run-input';
import { AppConfigSchema, type AppConfig, type AppConfigInput } from '../../../src/config';
import { isValidThreadId, LeadRunInputSchema } from '../../../src/contracts';

const MODELS: AppConfigInput['models'] = [
  { name: 'alpha', provider: 'scripted', script: 'alpha.yaml' },
  { name: 'beta', provider: 'scripted', script: 'beta.yaml' },
  { name: 'gamma', provider: 'openai', model: 'gpt-4o-mini' },
];

const config = (input: AppConfigInput = {}): AppConfig => AppConfigSchema.parse({ models: MODELS, ...input });
const request = (overrides: Partial<RunRequest> = {}): RunRequest => ({
  message: 'Summarize the repo',
  threadId: 'thread-1',
  runId: 'run-1',
  ...overrides,
});

describe('buildLeadRunInput: snapshot', () => {
  it('builds a full, schema-valid input with defaults', () => {
    const input = buildLeadRunInput(config(), request());
    expect(input).toEqual({
      threadId: 'thread-1',
      runId: 'run-1',
      userId: 'default',
      agentName: 'default',
      modelName: 'alpha',
      message: 'Summarize the repo',
      limits: {
        maxConcurrent: 3,
        maxTotal: 6,
        maxLeadTurns: 50,
        queueTimeoutSeconds: 300,
        pollingGraceSeconds: 60,
        heartbeatTimeoutSeconds: 30,
        maxTaskAttempts: 3,
        leadToolTimeoutSeconds: 300,
        leadToolHeartbeatTimeoutSeconds: 30,
        // No budget configured: the subagent default (SPEC §6.2) applies to the lead too.
        leadTokenBudget: { enabled: true, max_tokens: 2_000_000, max_input_tokens: null, max_output_tokens: null, warn_threshold: 0.7, hard_stop_threshold: 1 },
        leadLoopDetection: { warn_threshold: 3, hard_limit: 5, window_size: 20, tool_freq_warn: 30, tool_freq_hard_limit: 50, tool_freq_overrides: {} },
        historyEventLimit: 10_000,
        clarificationTimeoutSeconds: 86_400,
        maxTaskExtensionSeconds: 3600,
      },
      allowedSubagents: null,
      hostBashAllowed: false,
      availableSkills: null,
      catalog: [{ name: 'general-purpose', timeoutSeconds: 1800, maxTurns: 150 }],
      // Host bash is off here, so the lead's own tools leave it out.
      leadTools: ['ls', 'read_file', 'write_file', 'str_replace', 'web_fetch'],
      modelSteps: 'activity',
    });
    expect(LeadRunInputSchema.safeParse(input).success).toBe(true);
  });

  it('exposes its constants', () => {
    expect(DEFAULT_AGENT_NAME).toBe('default');
    expect(DEFAULT_MAX_TASK_ATTEMPTS).toBe(3);
    expect(MAX_CONCURRENT_CEILING).toBe(64);
  });

  it('keeps the user id and trims the message', () => {
    const input = buildLeadRunInput(config(), request({ userId: 'alice', message: '  hi  ' }));
    expect(input.userId).toBe('alice');
    expect(input.message).toBe('hi');
  });

  it('takes queue timeout from subagent_runtime and lead turns from the agent', () => {
    const input = buildLeadRunInput(
      config({ subagent_runtime: { queue_timeout_seconds: 42 }, agents: { default: { max_turns: 7 } } }),
      request(),
    );
    expect(input.limits.queueTimeoutSeconds).toBe(42);
    expect(input.limits.maxLeadTurns).toBe(7);
  });

  it('takes how the model steps run from lead_runs', () => {
    expect(buildLeadRunInput(config({ lead_runs: { model_steps: 'local' } }), request()).modelSteps).toBe('local');
  });
});

describe('buildLeadRunInput: model resolution', () => {
  const cfg = config({ default_model: 'beta', agents: { writer: { model: 'gamma' } } });

  it('request model wins', () => {
    expect(buildLeadRunInput(cfg, request({ agentName: 'writer', modelName: 'alpha' })).modelName).toBe('alpha');
  });

  it('then the agent model', () => {
    expect(buildLeadRunInput(cfg, request({ agentName: 'writer' })).modelName).toBe('gamma');
  });

  it('then default_model', () => {
    expect(buildLeadRunInput(cfg, request()).modelName).toBe('beta');
  });

  it('then the first configured model', () => {
    expect(buildLeadRunInput(config(), request()).modelName).toBe('alpha');
  });

  it('the default agent (used when none is named) supplies its model', () => {
    expect(buildLeadRunInput(config({ agents: { default: { model: 'gamma' } } }), request()).modelName).toBe('gamma');
  });

  it('errors naming model: when no model is configured', () => {
    expect(() => buildLeadRunInput(AppConfigSchema.parse({}), request())).toThrow(
      'model: no chat model is configured (add one under `models` in config.yaml)',
    );
  });

  it('errors naming model: for an unknown request model', () => {
    expect(() => buildLeadRunInput(cfg, request({ modelName: 'delta' }))).toThrow('model: "delta" is not a configured model');
  });

  it('errors naming model: for an unknown agent model', () => {
    expect(() => buildLeadRunInput(config({ agents: { ghostly: { model: 'phantom' } } }), request({ agentName: 'ghostly' }))).toThrow(
      'model: "phantom" is not a configured model',
    );
  });
});

describe('buildLeadRunInput: per-response concurrency', () => {
  const maxConcurrent = (cfg: AppConfig, requested?: number): number =>
    buildLeadRunInput(cfg, request(requested === undefined ? {} : { maxConcurrent: requested })).limits.maxConcurrent;

  it('request above max_running is capped at max_running (99 with 3 → 3)', () => {
    expect(maxConcurrent(config({ subagent_runtime: { max_running: 3 } }), 99)).toBe(3);
  });

  it('request 1 stays 1 (not bumped)', () => {
    expect(maxConcurrent(config({ subagent_runtime: { max_running: 3 } }), 1)).toBe(1);
  });

  it('request below max_running is kept', () => {
    expect(maxConcurrent(config({ subagent_runtime: { max_running: 8 } }), 5)).toBe(5);
  });

  it('no request → max_running', () => {
    expect(maxConcurrent(config())).toBe(3);
    expect(maxConcurrent(config({ subagent_runtime: { max_running: 7 } }))).toBe(7);
  });

  it('never above the 64 ceiling', () => {
    expect(maxConcurrent(config({ subagent_runtime: { max_running: 64 } }), 99)).toBe(64);
    expect(maxConcurrent(config({ subagent_runtime: { max_running: 64 } }))).toBe(64);
  });

  it('rejects a request below 1 or not an integer', () => {
    expect(() => maxConcurrent(config(), 0)).toThrow();
    expect(() => maxConcurrent(config(), 2.5)).toThrow();
  });
});

describe('buildLeadRunInput: per-run total', () => {
  const maxTotal = (cfg: AppConfig, requested?: number): number =>
    buildLeadRunInput(cfg, request(requested === undefined ? {} : { maxTotal: requested })).limits.maxTotal;

  it('defaults to subagents.max_total_per_run', () => {
    expect(maxTotal(config())).toBe(6);
    expect(maxTotal(config({ subagents: { max_total_per_run: 10 } }))).toBe(10);
  });

  it.each([
    [99, 50],
    [51, 50],
    [50, 50],
    [7, 7],
    [1, 1],
    [0, 1],
    [-3, 1],
  ])('clamps request %i to %i', (requested, expected) => {
    expect(maxTotal(config(), requested)).toBe(expected);
  });
});

describe('buildLeadRunInput: catalog', () => {
  const RESEARCHER = { description: 'Research agent\nwith details', system_prompt: 'You research.' };

  it('lists bash only when sandbox.allow_host_bash is true', () => {
    expect(buildLeadRunInput(config(), request()).catalog.map((e) => e.name)).toEqual(['general-purpose']);
    expect(buildLeadRunInput(config({ sandbox: { allow_host_bash: true } }), request()).catalog).toEqual([
      { name: 'general-purpose', timeoutSeconds: 1800, maxTurns: 150 },
      { name: 'bash', timeoutSeconds: 1800, maxTurns: 60 },
    ]);
  });

  it('appends custom agents with their own limits and applies overrides', () => {
    const cfg = config({
      sandbox: { allow_host_bash: true },
      subagents: {
        timeout_seconds: 600,
        custom_agents: { researcher: RESEARCHER },
        agents: { bash: { max_turns: 12 }, researcher: { timeout_seconds: 30 } },
      },
    });
    expect(buildLeadRunInput(cfg, request()).catalog).toEqual([
      { name: 'general-purpose', timeoutSeconds: 600, maxTurns: 150 },
      { name: 'bash', timeoutSeconds: 600, maxTurns: 12 },
      { name: 'researcher', timeoutSeconds: 30, maxTurns: 50 },
    ]);
  });

  it('allowed_subagents null → every available subagent', () => {
    const cfg = config({ subagents: { custom_agents: { researcher: RESEARCHER } }, agents: { lead: { allowed_subagents: null } } });
    const input = buildLeadRunInput(cfg, request({ agentName: 'lead' }));
    expect(input.allowedSubagents).toBeNull();
    expect(input.catalog.map((e) => e.name)).toEqual(['general-purpose', 'researcher']);
  });

  it('allowed_subagents [] → empty catalog', () => {
    const cfg = config({ subagents: { custom_agents: { researcher: RESEARCHER } }, agents: { lead: { allowed_subagents: [] } } });
    const input = buildLeadRunInput(cfg, request({ agentName: 'lead' }));
    expect(input.allowedSubagents).toEqual([]);
    expect(input.catalog).toEqual([]);
  });

  it('allowed_subagents list → intersected with the available catalog, in catalog order', () => {
    const cfg = config({
      subagents: { custom_agents: { researcher: RESEARCHER } },
      agents: { lead: { allowed_subagents: ['researcher', 'bash', 'ghost'] } },
    });
    const input = buildLeadRunInput(cfg, request({ agentName: 'lead' }));
    expect(input.allowedSubagents).toEqual(['researcher', 'bash', 'ghost']);
    // bash is allowed by policy but host bash is off; ghost does not exist.
    expect(input.catalog).toEqual([{ name: 'researcher', timeoutSeconds: 900, maxTurns: 50 }]);
  });

  it('the default agent policy applies when no agent is named', () => {
    const cfg = config({ sandbox: { allow_host_bash: true }, agents: { default: { allowed_subagents: ['bash'] } } });
    expect(buildLeadRunInput(cfg, request()).catalog.map((e) => e.name)).toEqual(['bash']);
  });
});

describe('buildLeadRunInput: rejected requests', () => {
  it('an unknown agent names agent: and the defined agents', () => {
    const cfg = config({ agents: { lead: {}, writer: {} } });
    expect(() => buildLeadRunInput(cfg, request({ agentName: 'ghost' }))).toThrow(
      'agent: "ghost" is not defined in config.yaml `agents` or the agent store (defined: lead, writer)',
    );
  });

  it('an unknown agent with no agents defined says none', () => {
    expect(() => buildLeadRunInput(config(), request({ agentName: 'ghost' }))).toThrow('(defined: none)');
  });

  it('an explicit "default" agent name must be defined too', () => {
    expect(() => buildLeadRunInput(config(), request({ agentName: 'default' }))).toThrow('agent: "default" is not defined');
  });

  it.each(['../etc', 'a/b', '-leading-dash', '.hidden', 'with space'])('rejects threadId %p naming the rule', (threadId) => {
    expect(() => buildLeadRunInput(config(), request({ threadId }))).toThrow(/"threadId"[\s\S]*must be 1-128 characters: letters, digits, _ . -/);
  });

  it.each(['', '   '])('rejects a blank threadId %p', (threadId) => {
    expect(() => buildLeadRunInput(config(), request({ threadId }))).toThrow(/"threadId"/);
  });

  it('accepts a 128-char threadId (the workspace limit)', () => {
    const threadId = 't'.repeat(128);
    expect(isValidThreadId(threadId)).toBe(true);
    expect(buildLeadRunInput(config(), request({ threadId })).threadId).toBe(threadId);
  });

  // BUG: RunRequestSchema has no length limit, while ThreadWorkspace (src/tools/thread-workspace.ts)
  // only accepts 1-128 chars: a run with a 129-char thread id starts, then every workspace tool fails.
  test('rejects a threadId the thread workspace would reject (129 chars)', () => {
    const threadId = 't'.repeat(129);
    expect(isValidThreadId(threadId)).toBe(false);
    expect(() => buildLeadRunInput(config(), request({ threadId }))).toThrow(/threadId/);
  });

  it('accepts letters, digits, _ . -', () => {
    expect(buildLeadRunInput(config(), request({ threadId: 'T_1.a-b' })).threadId).toBe('T_1.a-b');
  });

  it('rejects an empty message, a blank run id and unknown request keys', () => {
    expect(() => buildLeadRunInput(config(), request({ message: '   ' }))).toThrow();
    expect(() => buildLeadRunInput(config(), request({ runId: ' ' }))).toThrow();
    expect(() => buildLeadRunInput(config(), { ...request(), extra: true } as RunRequest)).toThrow();
  });
});
