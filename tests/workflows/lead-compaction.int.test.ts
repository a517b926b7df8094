import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DELEGATION_LEDGER_HEADING, DURABLE_CONTEXT_DATA_KEY } from '../../src/middleware';
import { checkProviderRequest } from '../../src/models/provider-request-rules';
import { useTemporal } from '../support/use-temporal';

const temporal = useTemporal();

const THREAD = 'long-thread';
const SUMMARIZATION = { summarization: { enabled: true, trigger: { messages: 12 }, keep: { messages: 4 } } };
/** Runs after the first one; each writes 4 messages (input, ls call, its result, answer): 4 + 14 × 4 = 60. */
const LS_RUNS = 14;

// The thread outlives the first harness (a second one continues it with another script).
let dir: string | undefined;
afterAll(() => {
  if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
});

test('compaction and the ledger survive a 60-message thread: the lead sends a summary, not the whole thread', async () => {
  dir = mkdtempSync(join(tmpdir(), 'deerflow-test-'));
  // Run 1 delegates a task early in the thread.
  const first = await temporal.start(
    {
      lead: [
        { tool_calls: [{ name: 'task', args: { description: 'Survey the repo', prompt: 'Survey the repository layout', subagent_type: 'general-purpose' } }] },
        { content: 'delegated' },
      ],
      subagents: [{ match: '*', turns: [{ content: 'survey done' }] }],
    },
    SUMMARIZATION,
    { dir },
  );
  const { state: delegated } = await first.run({ message: 'survey the repo', threadId: THREAD, runId: 'run-1' });
  expect([delegated.status, delegated.tasks.map((t) => t.status)]).toEqual(['completed', ['completed']]);
  await first.close();

  // Then many runs on the same thread where the lead lists files itself.
  const harness = await temporal.start({ lead: [{ tool_calls: [{ name: 'ls', args: { path: '.' } }] }, { content: 'listed' }] }, SUMMARIZATION, { dir });
  for (let run = 2; run <= LS_RUNS + 1; run += 1) {
    const { state } = await harness.run({ message: `list the files (${run})`, threadId: THREAD, runId: `run-${run}` });
    // A request the strict scripted model refused would have failed the run with a 400.
    expect([run, state.status, state.error, state.finalMessageBrief]).toEqual([run, 'completed', null, 'listed']);
  }

  const stored = await harness.stores.messages.listMessages(THREAD);
  expect(stored).toHaveLength(60);
  // The summary is kept apart: the thread feed holds only what happened.
  const summary = await harness.stores.summaries.latestSummary(THREAD);
  expect(summary?.text).toMatch(/^\(scripted summary of \d+ transcript lines\)$/);
  expect(stored.map((r) => r.key)).toContain(summary?.throughKey);
  expect(stored.some((r) => JSON.stringify(r.message).includes('scripted summary'))).toBe(false);

  const requests = harness.recorder.requests;
  const summarizer = requests.filter((r) => r.tags.includes('summarizer'));
  const lead = requests.filter((r) => r.tags.includes('lead'));
  expect(lead).toHaveLength(LS_RUNS * 2);
  // One compaction every few runs, not one per step: the summary is stored and reused.
  expect(summarizer.length).toBeGreaterThan(1);
  expect(summarizer.length).toBeLessThan(LS_RUNS);
  expect(summarizer.every((r) => r.messages[0]?.text.includes('You compact the working history'))).toBe(true);
  // A later compaction summarizes the previous summary together with the newly cut messages.
  expect(summarizer[summarizer.length - 1]?.messages[1]?.text).toMatch(/^Summary so far:\n\(scripted summary of/);

  for (const request of lead) {
    expect(checkProviderRequest(request.messages)).toBeNull();
    expect(request.messages.filter((m) => m.type === 'system')).toHaveLength(1);
    // The hidden durable context data follows the system message, the delegation ledger intact.
    const data = request.messages[1];
    expect(data?.additional_kwargs).toMatchObject({ hide_from_ui: true, [DURABLE_CONTEXT_DATA_KEY]: true });
    expect(data?.text).toContain(DELEGATION_LEDGER_HEADING);
    expect(data?.text).toContain('[completed] Survey the repo (via general-purpose');
  }
  const last = lead[lead.length - 1]!;
  expect(last.messages.length).toBeLessThan(stored.length / 3);
  expect(last.messages[1]?.text).toContain(`## Conversation summary so far\n${summary?.text}`);
  // The kept tail is the newest part of the thread, ending with the result of the last `ls`.
  expect(last.messages[last.messages.length - 1]?.type).toBe('tool');
  expect(last.messages.some((m) => m.text.includes('list the files (15)'))).toBe(true);
  expect(last.messages.some((m) => m.text.includes('survey the repo'))).toBe(false);
});
