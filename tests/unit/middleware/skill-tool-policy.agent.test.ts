import { ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { createAgent } from 'langchain';

import { AppConfigSchema } from '../../../src/config';
import { buildSubagentMiddleware, subagentInputMessages } from '../../../src/middleware/agent';
import { parseScenario, ScriptedChatModel } from '../../../src/models';
import { withToolReceipts } from '../../../src/receipts/agent';
import type { SkillToolRule } from '../../../src/middleware';
import { ModelRequestRecorder } from '../../support/model-request-recorder';
import { recordingStubTools } from '../../support/recording-stub-tools';

const SKILL_PATH = '/mnt/skills/public/pdf-forms/SKILL.md';
const TASK = 'Fill the form';
const readSkill = { name: 'read_file', args: { path: SKILL_PATH } };
const writeOut = { name: 'write_file', args: { path: '/mnt/user-data/outputs/a.txt', content: 'x' } };

/** A subagent with stub read_file, write_file and bash tools, the real chain (receipts on) and a scripted model. */
function setup(turns: readonly Record<string, unknown>[], skills: readonly SkillToolRule[], summarization = false) {
  const { ran, stub } = recordingStubTools();
  const scenario = parseScenario({ subagents: [{ match: '*', turns }] }, 'skill-policy');
  const model = new ScriptedChatModel({ scenario, role: { kind: 'subagent', taskPrompt: TASK }, modelName: 'scripted' });
  const config = AppConfigSchema.parse({ summarization: { enabled: summarization } });
  // A summary model that is never asked: the conversation stays far below the trigger.
  const summaryModel = summarization ? new ScriptedChatModel({ scenario, role: { kind: 'summarizer' }, modelName: 'scripted' }) : undefined;
  const chain = buildSubagentMiddleware({ config, agentName: 'general-purpose', skills, summaryModel });
  const agent = createAgent({
    model,
    tools: [stub('read_file', '---\nname: pdf-forms\nallowed_tools: [read_file]\n---\nRead only.'), stub('write_file', 'written'), stub('bash', 'ran')],
    systemPrompt: 'You are a subagent.',
    middleware: withToolReceipts(chain),
  });
  const recorder = new ModelRequestRecorder();
  const run = async (): Promise<BaseMessage[]> =>
    (await agent.invoke({ messages: subagentInputMessages(TASK) }, { callbacks: [recorder], context: { run_id: 'r1', thread_id: 't1' } })).messages;
  return { run, ran, toolsPerRequest: () => recorder.requests.map((r) => [...r.tools].sort()) };
}

const toolMessages = (messages: readonly BaseMessage[]) => messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));

describe('the skill tool policy inside the subagent chain', () => {
  it.each([
    ['from the reads in the messages (summarization off)', false],
    ['from the skills recorded in state too (summarization on)', true],
  ])("removes the tools an active skill omits from the next request and refuses a call to one, active skills %s", async (_, summarization) => {
    const { run, ran, toolsPerRequest } = setup(
      [{ tool_calls: [readSkill] }, { tool_calls: [writeOut] }, { content: 'done' }],
      [{ name: 'pdf-forms', allowedTools: ['read_file'] }],
      summarization,
    );
    const messages = await run();

    expect(toolsPerRequest()).toEqual([['bash', 'read_file', 'write_file'], ['read_file'], ['read_file']]);
    expect(ran).toEqual(['read_file']);
    const refusal = toolMessages(messages)[1];
    expect(refusal?.status).toBe('error');
    expect(refusal?.name).toBe('write_file');
    // Inside the receipts middleware: the refusal is receipted as an error result like any failed call.
    expect(refusal?.text).toBe(
      "Error: tool 'write_file' is not allowed while skill 'pdf-forms' is active (allowed_tools). Allowed tools now: read_file, tool_search.\n\n" +
        'Tool receipts ledger: r2 = write_file (error). Cite it as [r2 write_file].',
    );
    expect(messages.at(-1)?.text).toBe('done');
  });

  it('refuses a call made in the same turn as the SKILL.md read', async () => {
    const { run, ran } = setup([{ tool_calls: [readSkill, writeOut] }, { content: 'done' }], [{ name: 'pdf-forms', allowedTools: ['read_file'] }]);
    const messages = await run();
    expect(ran).toEqual(['read_file']);
    expect(toolMessages(messages).map((m) => [m.name, m.status])).toEqual([
      ['read_file', 'success'],
      ['write_file', 'error'],
    ]);
  });

  it('keeps every tool when the active skill has no allowed_tools, or is not one the agent may load', async () => {
    for (const skills of [[{ name: 'pdf-forms', allowedTools: null }], [{ name: 'other', allowedTools: ['read_file'] }]]) {
      const { run, ran, toolsPerRequest } = setup([{ tool_calls: [readSkill] }, { tool_calls: [writeOut] }, { content: 'done' }], skills);
      await run();
      expect(toolsPerRequest()[1]).toEqual(['bash', 'read_file', 'write_file']);
      expect(ran).toEqual(['read_file', 'write_file']);
    }
  });
});
