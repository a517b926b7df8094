import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { planLeadCompaction, repairDanglingToolCalls, requestOrigins } from '../../../src/middleware';
import { checkProviderRequest } from '../../../src/models/provider-request-rules';

const human = (text: string) => new HumanMessage(text);
const ai = (text: string, ...ids: string[]) => new AIMessage({ content: text, tool_calls: ids.map((id) => ({ id, name: 'ls', args: {} })) });
const tool = (id: string) => new ToolMessage({ content: `result ${id}`, tool_call_id: id, name: 'ls' });
const repair = (thread: readonly BaseMessage[]) => repairDanglingToolCalls(thread, (fields) => new ToolMessage(fields));

/** A thread of `runs` runs, each: input, ls call, its result, final answer (4 records a run). */
function runs(count: number): BaseMessage[] {
  return Array.from({ length: count }, (_, i) => [human(`q${i}`), ai(`look ${i}`, `c${i}`), tool(`c${i}`), ai(`answer ${i}`)]).flat();
}

describe('requestOrigins', () => {
  test('kept messages map to their record; a made-up answer takes the origin of its call block', () => {
    const call = ai('two calls', 'a', 'b');
    const thread = [human('q'), call, tool('a'), human('next')];
    const repaired = repair(thread);
    expect(repaired.map((m) => m.type)).toEqual(['human', 'ai', 'tool', 'tool', 'human']);
    expect(requestOrigins(thread, repaired)).toEqual([0, 1, 2, 2, 3]);
  });

  test('a late answer moved up to its call keeps its own record', () => {
    const thread = [human('q'), ai('call', 'a'), human('interrupting'), tool('a')];
    const repaired = repair(thread);
    expect(repaired.map((m) => m.text)).toEqual(['q', 'call', 'result a', 'interrupting']);
    expect(requestOrigins(thread, repaired)).toEqual([0, 1, 3, 2]);
  });
});

describe('planLeadCompaction', () => {
  const options = { trigger: { messages: 12 }, keep: 4 };

  test('below the trigger, or with an empty trigger, nothing is compacted', () => {
    const thread = runs(2);
    expect(planLeadCompaction(thread, requestOrigins(thread, thread), -1, options)).toEqual({ start: 0, compact: null });
    const big = runs(10);
    expect(planLeadCompaction(big, requestOrigins(big, big), -1, { trigger: {}, keep: 4 })).toEqual({ start: 0, compact: null });
  });

  test('past the trigger, all but the last `keep` messages are summarized; coverage ends before the first kept record', () => {
    const thread = [...runs(3), human('q3')];
    const plan = planLeadCompaction(thread, requestOrigins(thread, thread), -1, options);
    // Last 4 = [call, result, answer, q3]: the kept part starts at the assistant call of run 2.
    expect(plan).toEqual({ start: 0, compact: { end: 9, throughRecord: 8 } });
  });

  test('the kept part never starts with a tool result, and the request stays valid', () => {
    const thread = [...runs(3), human('q3'), ai('look 3', 'c3'), tool('c3')];
    const plan = planLeadCompaction(thread, requestOrigins(thread, thread), -1, options);
    expect(plan.compact).toEqual({ end: 11, throughRecord: 10 });
    // Keeping 1 would start at `result c3`: the cut moves back to its call.
    const keep1 = planLeadCompaction(thread, requestOrigins(thread, thread), -1, { ...options, keep: 1 });
    expect(thread[keep1.compact!.end]?.type).toBe('ai');
    expect(keep1.compact).toEqual({ end: 13, throughRecord: 12 });
    for (const { compact } of [plan, keep1]) {
      const request = [new HumanMessage({ content: 'data', additional_kwargs: { hide_from_ui: true } }), ...thread.slice(compact!.end)];
      expect(checkProviderRequest(request)).toBeNull();
    }
  });

  test('a stored summary hides what it covers; the next plan starts where the previous one cut', () => {
    const thread = [...runs(3), human('q3')];
    const first = planLeadCompaction(thread, requestOrigins(thread, thread), -1, options);
    const covered = first.compact!.throughRecord;
    const grown = [...thread, ai('look 3', 'c3'), tool('c3'), ai('answer 3')];
    const next = planLeadCompaction(grown, requestOrigins(grown, grown), covered, options);
    expect(next).toEqual({ start: first.compact!.end, compact: null });
    // Once the uncovered part passes the trigger again, the coverage moves on.
    const longer = [...grown, ...runs(2)];
    const later = planLeadCompaction(longer, requestOrigins(longer, longer), covered, options);
    expect(later.start).toBe(first.compact!.end);
    expect(later.compact).toEqual({ end: longer.length - 4, throughRecord: longer.length - 5 });
  });

  test('coverage is by record, so a repaired thread (made-up and moved answers) resumes at the same place', () => {
    // Run 0 left a call unanswered; run 1 answered a call late, after its next input.
    const thread = [human('q0'), ai('call', 'x'), human('q1'), ai('call', 'y'), human('q2'), tool('y'), ...runs(3)];
    const repaired = repair(thread);
    const origins = requestOrigins(thread, repaired);
    const first = planLeadCompaction(repaired, origins, -1, { trigger: { messages: 6 }, keep: 10 });
    expect(first.compact).not.toBeNull();
    const { end, throughRecord } = first.compact!;
    expect(repaired[end]?.type).not.toBe('tool');
    const again = planLeadCompaction(repaired, origins, throughRecord, { trigger: { messages: 100 }, keep: 10 });
    expect(again.start).toBe(end);
    expect(checkProviderRequest([human('data'), ...repaired.slice(end)])).toBeNull();
  });

  test('a late answer summarized with its call is not sent again after the cut', () => {
    const thread = [human('q0'), ai('call', 'y'), human('q1'), tool('y'), ...runs(2)];
    const repaired = repair(thread);
    const origins = requestOrigins(thread, repaired);
    // Cut right after the moved answer: the kept part starts at q1 (record 2), the answer is record 3.
    const plan = planLeadCompaction(repaired, origins, -1, { trigger: { messages: 1 }, keep: repaired.length - 3 });
    expect(plan.compact).toEqual({ end: 3, throughRecord: 1 });
    const next = planLeadCompaction(repaired, origins, 1, { trigger: { messages: 100 }, keep: 4 });
    expect(repaired.slice(next.start).map((m) => m.text)).toEqual(repaired.slice(3).map((m) => m.text));
    expect(repaired.slice(next.start).some((m) => m.type === 'tool' && (m as ToolMessage).tool_call_id === 'y')).toBe(false);
  });
});
