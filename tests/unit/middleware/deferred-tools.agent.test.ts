import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';

import { AppConfigSchema } from '../../../src/config';
import { buildSubagentMiddleware, subagentInputMessages } from '../../../src/middleware/agent';
import type { SkillToolRule } from '../../../src/middleware';
import { parseScenario, ScriptedChatModel } from '../../../src/models';
import { withToolReceipts } from '../../../src/receipts/agent';
import { ModelRequestRecorder } from '../../support/model-request-recorder';
import { recordingStubTools } from '../../support/recording-stub-tools';

const TASK = 'Look it up';
const SKILL_PATH = '/mnt/skills/public/pdf-forms/SKILL.md';
const search = (query: string) => ({ name: 'tool_search', args: { query } });
const docsSearch = { name: 'docs__search', args: { q: 'deferral' } };

const DEFERRED = [
  { name: 'docs__search', description: 'Full-text search over the documentation', inputSchema: { type: 'object', properties: { q: { type: 'string' } } } },
  { name: 'docs__fetch', description: 'Fetches one documentation page', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];

/** A subagent with stub tools (two of them deferred MCP tools), the real chain (receipts on) and a scripted model. */
/** Summarization off, on (far from its trigger), or compacting after 6 messages, keeping 2 (the tool_search result leaves the history early). */
type Summarization = 'off' | 'on' | 'compacting';

function setup(turns: readonly Record<string, unknown>[], skills: readonly SkillToolRule[] = [], summarization: Summarization = 'off') {
  const { ran, stub } = recordingStubTools();
  const scenario = parseScenario({ subagents: [{ match: '*', turns }] }, 'deferred-tools');
  const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: TASK }, modelName: 'scripted' });
  const config = AppConfigSchema.parse(
    summarization === 'off'
      ? {}
      : { summarization: { enabled: true, trigger: { messages: summarization === 'compacting' ? 6 : 1000 }, keep: { messages: 2 } } },
  );
  const summaryModel = new ScriptedChatModel({ scenario, role: { kind: 'summarizer' }, modelName: 'scripted' });
  const chain = buildSubagentMiddleware({ config, agentName: 'general-purpose', skills, summaryModel, deferredTools: { deferred: DEFERRED, maxResults: 5 } });
  const agent = createAgent({
    model,
    tools: [stub('read_file', '---\nname: pdf-forms\nallowed_tools: [read_file]\n---\nRead only.'), stub('docs__search', 'found it'), stub('docs__fetch', 'page')],
    systemPrompt: 'You are a subagent.',
    middleware: withToolReceipts(chain),
  });
  const recorder = new ModelRequestRecorder();
  // The chain is typed as plain middleware, so the agent's state type does not know the promotions channel.
  const run = async () =>
    (await agent.invoke({ messages: subagentInputMessages(TASK) }, { callbacks: [recorder], context: { run_id: 'r1', thread_id: 't1' }, recursionLimit: 100 })) as Awaited<
      ReturnType<typeof agent.invoke>
    > & { promoted_tools?: string[] };
  return { run, ran, toolsPerRequest: () => recorder.requests.map((r) => [...r.tools].sort()) };
}

const toolMessages = (messages: readonly BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

describe('deferred tools inside the subagent chain', () => {
  it('binds a deferred tool only once tool_search promoted it, then runs its call', async () => {
    const { run, ran, toolsPerRequest } = setup([{ tool_calls: [search('select:docs__search')] }, { tool_calls: [docsSearch] }, { content: 'done' }]);
    const state = await run();

    expect(toolsPerRequest()).toEqual([
      ['read_file', 'tool_search'],
      ['docs__search', 'read_file', 'tool_search'],
      ['docs__search', 'read_file', 'tool_search'],
    ]);
    expect(ran).toEqual(['docs__search']);
    const [found, called] = toolMessages(state.messages);
    expect(found?.text).toContain('"name": "docs__search"');
    expect(found?.text).toContain('"q"');
    expect(called).toMatchObject({ name: 'docs__search', status: 'success' });
    // Summarization off: promotions are read from the messages, never recorded.
    expect(state.promoted_tools).toBeUndefined();
  });

  it('records promotions in state only with summarization on; requests, runs and refusals are the same either way', async () => {
    const turns = [{ tool_calls: [docsSearch] }, { tool_calls: [search('select:docs__search'), docsSearch] }, { tool_calls: [docsSearch] }, { content: 'done' }];
    const read = setup(turns);
    const recorded = setup(turns, [], 'on');
    const [readState, recordedState] = [await read.run(), await recorded.run()];

    expect(readState.promoted_tools).toBeUndefined();
    expect(recordedState.promoted_tools).toEqual(['docs__search']);
    const outcomes = (messages: readonly BaseMessage[]) => toolMessages(messages).map((m) => [m.name, m.status]);
    // Refused before the search and next to it, run after it.
    expect(outcomes(readState.messages)).toEqual([
      ['docs__search', 'error'],
      ['tool_search', 'success'],
      ['docs__search', 'error'],
      ['docs__search', 'success'],
    ]);
    expect(outcomes(recordedState.messages)).toEqual(outcomes(readState.messages));
    expect(read.ran).toEqual(['docs__search']);
    expect(recorded.ran).toEqual(read.ran);
    expect(read.toolsPerRequest()).toEqual([
      ['read_file', 'tool_search'],
      ['read_file', 'tool_search'],
      ['docs__search', 'read_file', 'tool_search'],
      ['docs__search', 'read_file', 'tool_search'],
    ]);
    expect(recorded.toolsPerRequest()).toEqual(read.toolsPerRequest());
  });

  it('refuses a deferred tool called before it was loaded, also next to the tool_search that loads it', async () => {
    const { run, ran, toolsPerRequest } = setup([{ tool_calls: [docsSearch] }, { tool_calls: [search('documentation search'), docsSearch] }, { content: 'done' }]);
    const state = await run();

    expect(ran).toEqual([]);
    const messages = toolMessages(state.messages);
    expect(messages.map((m) => [m.name, m.status])).toEqual([
      ['docs__search', 'error'],
      ['tool_search', 'success'],
      ['docs__search', 'error'],
    ]);
    expect(messages[0]?.text).toBe(
      'Error: tool \'docs__search\' is deferred and its schema is not loaded yet: call tool_search (e.g. query "select:docs__search") to load it, then call it in your next response\n\n' +
        'Tool receipts ledger: r1 = docs__search (error). Cite it as [r1 docs__search].',
    );
    // Keyword search promoted both; the next request binds them.
    expect(toolsPerRequest()[2]).toEqual(['docs__fetch', 'docs__search', 'read_file', 'tool_search']);
  });

  it('keeps a promotion after compaction dropped the tool_search result from the history', async () => {
    const readNotes = { name: 'read_file', args: { path: 'notes.txt' } };
    const { run, ran, toolsPerRequest } = setup(
      [{ tool_calls: [search('select:docs__fetch')] }, { tool_calls: [readNotes] }, { tool_calls: [readNotes] }, { tool_calls: [readNotes] }, { tool_calls: [docsSearch, { name: 'docs__fetch', args: {} }] }, { content: 'done' }],
      [],
      'compacting',
    );
    const state = await run();

    expect(state.messages.some((m) => ToolMessage.isInstance(m) && m.name === 'tool_search')).toBe(false);
    expect(toolsPerRequest().at(-1)).toEqual(['docs__fetch', 'read_file', 'tool_search']);
    expect(ran.filter((name) => name !== 'read_file')).toEqual(['docs__fetch']);
    expect(state.promoted_tools).toEqual(['docs__fetch']);
  });

  it('a promoted tool still passes the skill tool policy: removed from requests and refused while the skill omits it', async () => {
    const { run, ran, toolsPerRequest } = setup(
      [{ tool_calls: [{ name: 'read_file', args: { path: SKILL_PATH } }] }, { tool_calls: [search('select:docs__search')] }, { tool_calls: [docsSearch] }, { content: 'done' }],
      [{ name: 'pdf-forms', allowedTools: ['read_file'] }],
    );
    const state = await run();

    // tool_search is always allowed; the tool it promotes is not.
    expect(toolsPerRequest().slice(1)).toEqual([
      ['read_file', 'tool_search'],
      ['read_file', 'tool_search'],
      ['read_file', 'tool_search'],
    ]);
    expect(ran).toEqual(['read_file']);
    const refusal = toolMessages(state.messages).at(-1);
    expect(refusal).toMatchObject({ name: 'docs__search', status: 'error' });
    expect(refusal?.text).toContain("Error: tool 'docs__search' is not allowed while skill 'pdf-forms' is active (allowed_tools).");
  });
});
