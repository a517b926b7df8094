import { AppConfigSchema, type AppConfigInput } from '../../../src/config';
import {
  buildSubagentMiddleware,
  DATE_CONTEXT_MIDDLEWARE_NAME,
  dateContextMiddleware,
  durableContextMiddleware,
  stopReasonGuards,
  subagentInputMessages,
  systemMessageCoalescingMiddleware,
} from '../../../src/middleware/agent';
import { recursionLimitForTurns } from '../../../src/middleware/turn-recursion-limit';
import { HumanMessage, SystemMessage } from '@langchain/core/messages';
import { createAgent, tool } from 'langchain';
import { z } from 'zod';
import { parseScenario, ScriptedChatModel } from '../../../src/models';
import { withToolReceipts } from '../../../src/receipts/agent';
import { RecordingChatModel } from './recording-chat-model';

const names = (input: AppConfigInput = {}) => buildSubagentMiddleware({ config: AppConfigSchema.parse(input), agentName: 'general-purpose' }).map((m) => m.name);

test('the chain order is pinned: sanitization outermost, guards, durable context, skill tool policy, coalescer last', () => {
  // Tool-result sanitization sits right after input sanitization (tool results are data): outside
  // everything that adds framework blocks, so only tool output is neutralized.
  // No node hooks by default (see below), so no folded hooks middleware in front.
  expect(names()).toEqual([
    'InputSanitizationMiddleware',
    'ToolResultSanitizationMiddleware',
    'LLMErrorHandlingMiddleware',
    'ToolErrorHandlingMiddleware',
    'LoopDetectionMiddleware',
    'TokenBudgetMiddleware',
    'DurableContextMiddleware',
    // Right after the skill tracking it reads, and inside the tool error handler (see the next test).
    'SkillToolPolicyMiddleware',
    'SystemMessageCoalescingMiddleware',
  ]);
});

test('with receipts, the receipts middleware wraps the tool error handler and so the skill tool policy', () => {
  const chain = withToolReceipts(buildSubagentMiddleware({ config: AppConfigSchema.parse({}), agentName: 'general-purpose' })).map((m) => m.name);
  const at = (name: string) => chain.indexOf(name);
  expect(at('ToolReceiptsMiddleware')).toBe(at('ToolErrorHandlingMiddleware') - 1);
  expect(at('SkillToolPolicyMiddleware')).toBeGreaterThan(at('ToolErrorHandlingMiddleware'));
  expect(at('SkillToolPolicyMiddleware')).toBe(at('DurableContextMiddleware') + 1);
});

test('disabled guards are left out; the coalescer stays last', () => {
  const chain = names({ loop_detection: { enabled: false }, subagents: { token_budget: { enabled: false } } });
  expect(chain).not.toContain('LoopDetectionMiddleware');
  expect(chain).not.toContain('TokenBudgetMiddleware');
  expect(chain[chain.length - 1]).toBe('SystemMessageCoalescingMiddleware');
});

test('both guards report stop reasons; the default chain admits an exact turn cap', () => {
  const chain = buildSubagentMiddleware({ config: AppConfigSchema.parse({}), agentName: 'general-purpose' });
  expect(stopReasonGuards(chain).map((g) => (g as unknown as { name: string }).name)).toEqual(['LoopDetectionMiddleware', 'TokenBudgetMiddleware']);
  expect(() => recursionLimitForTurns(150, chain)).not.toThrow();
});

test('with summarization enabled it sits right after durable context and the skill tool policy, before the coalescer', () => {
  const summaryModel = new ScriptedChatModel({ scenario: parseScenario({}, 'none'), role: { kind: 'summarizer' }, modelName: 'm' });
  const chain = buildSubagentMiddleware({ config: AppConfigSchema.parse({ summarization: { enabled: true } }), agentName: 'general-purpose', summaryModel }).map((m) => m.name);
  expect(chain.slice(-4)).toEqual(['DurableContextMiddleware', 'SkillToolPolicyMiddleware', 'SummarizationMiddleware', 'SystemMessageCoalescingMiddleware']);
  expect(() => buildSubagentMiddleware({ config: AppConfigSchema.parse({ summarization: { enabled: true } }), agentName: 'general-purpose' })).toThrow('needs a summary model');
});

test('the scripted summarizer answers without consuming the script', async () => {
  const scenario = parseScenario({ subagents: [{ match: '*', turns: [{ content: 'first turn' }] }] }, 's');
  const summarizer = new ScriptedChatModel({ scenario, role: { kind: 'summarizer' }, modelName: 'm' });
  const answer = await summarizer.invoke([new HumanMessage('line one\nline two\n\nline three')]);
  expect(answer.text).toBe('(scripted summary of 3 transcript lines)');
  expect(answer.usage_metadata).toBeUndefined();
});

test('with deferred tools, their filter sits right after the skill tool policy and before summarization', () => {
  const summaryModel = new ScriptedChatModel({ scenario: parseScenario({}, 'none'), role: { kind: 'summarizer' }, modelName: 'm' });
  const deferredTools = { deferred: [{ name: 'docs__search', description: 'Search', inputSchema: { type: 'object' } }], maxResults: 5 };
  const chain = buildSubagentMiddleware({ config: AppConfigSchema.parse({ summarization: { enabled: true } }), agentName: 'general-purpose', summaryModel, deferredTools });
  expect(chain.map((m) => m.name).slice(-5)).toEqual([
    'DurableContextMiddleware',
    'SkillToolPolicyMiddleware',
    'DeferredToolsMiddleware',
    'SummarizationMiddleware',
    'SystemMessageCoalescingMiddleware',
  ]);
  expect(() => recursionLimitForTurns(50, chain)).not.toThrow();
  expect(() => buildSubagentMiddleware({ config: AppConfigSchema.parse({}), agentName: 'general-purpose', deferredTools: { deferred: [], maxResults: 5 } })).toThrow();
});

test('a turn runs one graph step per hook kind: by default 1 step for a one-turn task and 2 more per tool round, as the plain agent; with summarization 2 and 3', async () => {
  const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({}) });
  const summaryModel = new ScriptedChatModel({ scenario: parseScenario({}, 'none'), role: { kind: 'summarizer' }, modelName: 'm' });
  const nodesOf = async (turns: object[], summarization = false) => {
    const scenario = parseScenario({ subagents: [{ match: '*', turns }] }, 's');
    const middleware = buildSubagentMiddleware({ config: AppConfigSchema.parse({ summarization: { enabled: summarization } }), agentName: 'general-purpose', summaryModel });
    const agent = createAgent({ model: new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: 'go' }, modelName: 'm' }), tools: [noop], middleware });
    const nodes: string[] = [];
    for await (const update of await agent.stream({ messages: subagentInputMessages('go') }, { streamMode: 'updates', context: { run_id: 'r', thread_id: 't' } })) nodes.push(...Object.keys(update));
    return nodes;
  };
  const toolRound = [{ tool_calls: [{ name: 'noop', args: {} }] }, { content: 'done' }];
  // The guards check responses inside the model call: no after_model step.
  expect(await nodesOf([{ content: 'done' }])).toEqual(['model_request']);
  expect(await nodesOf(toolRound)).toEqual(['model_request', 'tools', 'model_request']);
  // Summarization compacts before a call, and durable context records the skills loaded first.
  const turn = ['SubagentHooksMiddleware.before_model', 'model_request'];
  expect(await nodesOf([{ content: 'done' }], true)).toEqual(turn);
  expect(await nodesOf(toolRound, true)).toEqual([...turn, 'tools', ...turn]);
});

test('the folded chain has no run-level hooks and no afterModel hook, whatever parts are enabled', () => {
  const summaryModel = new ScriptedChatModel({ scenario: parseScenario({}, 'none'), role: { kind: 'summarizer' }, modelName: 'm' });
  const deferredTools = { deferred: [{ name: 'docs__search', description: 'Search', inputSchema: { type: 'object' } }], maxResults: 5 };
  const chains = [
    buildSubagentMiddleware({ config: AppConfigSchema.parse({}), agentName: 'general-purpose' }),
    buildSubagentMiddleware({ config: AppConfigSchema.parse({ summarization: { enabled: true } }), agentName: 'general-purpose', summaryModel, deferredTools, skills: [{ name: 's', allowedTools: ['read_file'] }] }),
  ];
  for (const chain of chains) {
    expect(chain.filter((m) => m.beforeAgent !== undefined || m.afterAgent !== undefined).map((m) => m.name)).toEqual([]);
    expect(chain.filter((m) => m.afterModel !== undefined).map((m) => m.name)).toEqual([]);
    expect(chain.map((m) => m.name)).not.toContain(DATE_CONTEXT_MIDDLEWARE_NAME);
  }
});

test('the input of a fresh execution is the task message, then the hidden date reminder the coalescer folds in', () => {
  const [task, reminder, ...rest] = subagentInputMessages('do it', { now: () => new Date('2025-03-04T23:30:00Z'), timeZone: 'Asia/Tokyo' });
  expect(rest).toEqual([]);
  expect(HumanMessage.isInstance(task) && task.content).toBe('do it');
  expect(SystemMessage.isInstance(reminder)).toBe(true);
  expect(reminder?.content).toBe('<system-reminder>\n<current_date>2025-03-05, Wednesday</current_date>\n</system-reminder>');
  expect(reminder?.additional_kwargs).toEqual({ hide_from_ui: true, dynamic_context_reminder: true, reminder_date: '2025-03-05, Wednesday' });
});

test('the model gets the same requests as when the date reminder came from a beforeAgent hook of the chain', async () => {
  const now = () => new Date('2025-03-04T12:00:00Z');
  const noop = tool(async () => 'ok', { name: 'noop', description: 'does nothing', schema: z.object({}) });
  const requests = async (reminderInChain: boolean) => {
    const { model, calls } = RecordingChatModel.answering([{ content: '', toolCalls: [{ name: 'noop', args: {} }] }, 'done']);
    const chain = buildSubagentMiddleware({ config: AppConfigSchema.parse({}), agentName: 'general-purpose' });
    // The previous place of the reminder: its own middleware right before the coalescer.
    const middleware = reminderInChain ? [...chain.slice(0, -1), dateContextMiddleware({ now, timeZone: 'UTC' }), ...chain.slice(-1)] : chain;
    const agent = createAgent({ model, tools: [noop], systemPrompt: 'You are a subagent.', middleware });
    const input = reminderInChain ? [new HumanMessage('go')] : subagentInputMessages('go', { now, timeZone: 'UTC' });
    await agent.invoke({ messages: input }, { context: { run_id: 'r', thread_id: 't' } });
    return calls.map((call) => call.map((m) => [m.type, m.content, m.name]));
  };
  const before = await requests(true);
  expect(before).toHaveLength(2);
  expect(before[0]?.[0]?.[1]).toContain('<current_date>2025-03-04, Tuesday</current_date>');
  expect(await requests(false)).toEqual(before);
});

test('durable context gives the model the same skill context whether it records loaded skills in state or reads them from the messages', async () => {
  const readFile = tool(async () => '---\nname: pdf\n---\nUse it.', { name: 'read_file', description: 'reads a file', schema: z.object({ path: z.string() }) });
  const requests = async (recordSkills: boolean) => {
    const { model, calls } = RecordingChatModel.answering([
      { content: '', toolCalls: [{ name: 'read_file', args: { path: '/mnt/skills/public/pdf/SKILL.md' } }] },
      { content: '', toolCalls: [{ name: 'read_file', args: { path: '/mnt/skills/public/pdf/SKILL.md' } }] },
      'done',
    ]);
    const agent = createAgent({ model, tools: [readFile], systemPrompt: 'You are a subagent.', middleware: [durableContextMiddleware({ recordSkills }), systemMessageCoalescingMiddleware()] });
    const final = await agent.invoke({ messages: [new HumanMessage('go')] }, { context: { run_id: 'r', thread_id: 't' } });
    return { calls: calls.map((call) => call.map((m) => [m.type, m.content])), skillContext: (final as { skill_context?: unknown }).skill_context };
  };
  const recorded = await requests(true);
  const read = await requests(false);
  expect(recorded.calls).toHaveLength(3);
  // The skill is listed as loaded in every request after its read, once.
  const listed = '- pdf -> /mnt/skills/public/pdf/SKILL.md';
  expect(JSON.stringify(recorded.calls[0])).not.toContain(listed);
  expect(recorded.calls[2]?.[1]).toEqual(['human', `<durable_context_data>\n## Active skills (loaded earlier - re-read the file before applying its instructions)\n${listed}\n</durable_context_data>`]);
  expect(read.calls).toEqual(recorded.calls);
  expect(recorded.skillContext).toEqual([{ name: 'pdf', path: '/mnt/skills/public/pdf/SKILL.md' }]);
  // Reading from the messages, it declares no state at all.
  expect(read.skillContext).toBeUndefined();
});

test('only a chain with summarization declares state: every other wrap hook would pay a zod parser compiled per model call', () => {
  const stateful = (chain: readonly { name: string; stateSchema?: unknown }[]) => chain.filter((m) => m.stateSchema !== undefined).map((m) => m.name);
  const skills = [{ name: 's', allowedTools: ['read_file'] }];
  const deferredTools = { deferred: [{ name: 'docs__search', description: 'Search', inputSchema: { type: 'object' } }], maxResults: 5 };
  expect(stateful(buildSubagentMiddleware({ config: AppConfigSchema.parse({}), agentName: 'general-purpose', skills, deferredTools }))).toEqual([]);
  const summaryModel = new ScriptedChatModel({ scenario: parseScenario({}, 'none'), role: { kind: 'summarizer' }, modelName: 'm' });
  const summarizing = buildSubagentMiddleware({ config: AppConfigSchema.parse({ summarization: { enabled: true } }), agentName: 'general-purpose', summaryModel, deferredTools });
  expect(stateful(summarizing)).toEqual(['SubagentHooksMiddleware', 'DurableContextMiddleware', 'SkillToolPolicyMiddleware', 'DeferredToolsMiddleware', 'SummarizationMiddleware']);
});
