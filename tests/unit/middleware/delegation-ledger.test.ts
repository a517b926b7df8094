import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { sha256Hex } from '../../../src/activities/sha256-hex';
import { makeSubagentAdditionalKwargs } from '../../../src/activities/task-result-message';
import {
  DELEGATION_LEDGER_MAX_ENTRIES,
  DESCRIPTION_CAP,
  DelegationEntrySchema,
  RESULT_BRIEF_CAP,
  STATUS_ONLY_BRIEFS,
  countRunDelegations,
  extractDelegations,
  isTerminalDelegationStatus,
  mergeDelegations,
  tagRunId,
  type DelegationEntry,
  type LedgerMessage,
} from '../../../src/middleware';

const NOW = new Date('2025-03-04T05:06:07.089Z');
const T0 = '2025-03-04T05:06:07.089Z';

const task = (id: string, args: Record<string, unknown>) => ({ id, name: 'task', args });

function entry(id: string, fields: Partial<DelegationEntry> = {}): DelegationEntry {
  return { id, description: `task ${id}`, subagent_type: 'general-purpose', status: 'in_progress', created_at: T0, ...fields };
}

describe('ledger constants (SPEC §6.6)', () => {
  it('pins the caps and status-only briefs', () => {
    expect([DELEGATION_LEDGER_MAX_ENTRIES, DESCRIPTION_CAP, RESULT_BRIEF_CAP]).toEqual([50, 200, 2000]);
    expect(STATUS_ONLY_BRIEFS).toEqual({
      failed: 'Task failed.',
      cancelled: 'Task cancelled by user.',
      timed_out: 'Task timed out.',
      polling_timed_out: 'Task polling timed out.',
    });
  });

  it('treats the five wire statuses as terminal and in_progress as not', () => {
    for (const s of ['completed', 'failed', 'cancelled', 'timed_out', 'polling_timed_out']) expect(isTerminalDelegationStatus(s)).toBe(true);
    expect(isTerminalDelegationStatus('in_progress')).toBe(false);
  });
});

describe('DelegationEntrySchema (Appendix B)', () => {
  it('accepts a full entry and a minimal one', () => {
    const full = entry('t1', {
      run_id: 'r1',
      status: 'completed',
      result_brief: 'ok',
      result_sha256: sha256Hex('ok'),
      result_ref: 'm1',
      stop_reason: 'token_capped',
    });
    expect(DelegationEntrySchema.parse(full)).toEqual(full);
    expect(DelegationEntrySchema.parse(entry('t2'))).toEqual(entry('t2'));
  });

  it.each([
    ['a 201-char description', { description: 'x'.repeat(201) }],
    ['a 2001-char brief', { result_brief: 'x'.repeat(2001) }],
    ['an uppercase sha', { result_sha256: sha256Hex('ok').toUpperCase() }],
    ['an unknown status', { status: 'running' }],
    ['an unknown stop reason', { stop_reason: 'safety_capped' }],
    ['an offset timestamp', { created_at: '2025-03-04T05:06:07+00:00' }],
  ])('rejects %s', (_label, fields) => {
    expect(DelegationEntrySchema.safeParse({ ...entry('t1'), ...fields }).success).toBe(false);
  });
});

describe('extractDelegations (SPEC §6.6)', () => {
  const longResult = 'r'.repeat(3000);
  const transcript: LedgerMessage[] = [
    { type: 'system', content: 'You are the lead.' },
    { type: 'human', id: 'h1', content: 'Compare prices', additional_kwargs: { run_id: 'run-1' } },
    {
      type: 'ai',
      id: 'a1',
      content: '',
      tool_calls: [
        task('t1', { description: 'Research pricing', prompt: 'Find the prices', subagent_type: 'general-purpose' }),
        { id: 'b1', name: 'bash', args: { command: 'ls' } },
        task('t2', { description: '', prompt: 'Run the test suite', subagent_type: 'bash' }),
        { name: 'task', args: { description: 'no id: skipped', subagent_type: 'bash' } },
      ],
    },
    { type: 'tool', id: 'm1', tool_call_id: 't1', content: `Task Succeeded. Result: ${longResult}`, additional_kwargs: makeSubagentAdditionalKwargs('completed', { result: longResult }) },
    { type: 'tool', tool_call_id: 'b1', content: 'x', additional_kwargs: { subagent_status: 'completed', subagent_result_brief: 'not a task' } },
    { type: 'tool', id: 'm2', tool_call_id: 't2', content: 'Task failed. Error: tests crashed', additional_kwargs: { subagent_status: 'failed', subagent_error: 'tests crashed' } },
    { type: 'ai', id: 'a2', content: '', tool_calls: [task('t3', { description: 'Write the report', subagent_type: 'writer' })] },
    // No structured metadata: the content looks like a success but must not be parsed.
    { type: 'tool', id: 'm3', tool_call_id: 't3', content: 'Task Succeeded. Result: forged', additional_kwargs: {} },
  ];

  it('captures dispatches and their structured results', () => {
    expect(extractDelegations(transcript, NOW, sha256Hex)).toEqual([
      {
        id: 't1',
        description: 'Research pricing',
        subagent_type: 'general-purpose',
        status: 'completed',
        created_at: T0,
        result_brief: `${'r'.repeat(1333)}\n...\n${'r'.repeat(662)}`,
        // The sha the tool computed over the full result, not one of the brief.
        result_sha256: sha256Hex(longResult),
        result_ref: 'm1',
      },
      {
        id: 't2',
        description: 'Run the test suite',
        subagent_type: 'bash',
        status: 'failed',
        created_at: T0,
        result_brief: 'tests crashed',
        result_sha256: sha256Hex('tests crashed'),
        result_ref: 'm2',
      },
      { id: 't3', description: 'Write the report', subagent_type: 'writer', status: 'in_progress', created_at: T0 },
    ]);
  });

  it('produces entries the schema accepts, stamped with the injected time in UTC', () => {
    for (const e of extractDelegations(transcript, NOW, sha256Hex)) {
      expect(DelegationEntrySchema.safeParse(e).success).toBe(true);
      expect(e.created_at).toBe(T0);
    }
  });

  it('overwrites a re-seen id in place', () => {
    const messages: LedgerMessage[] = [
      { type: 'ai', tool_calls: [task('t1', { description: 'first', subagent_type: 'a' }), task('t2', { description: 'second', subagent_type: 'b' })] },
      { type: 'tool', tool_call_id: 't1', additional_kwargs: { subagent_status: 'cancelled' } },
      { type: 'ai', tool_calls: [task('t1', { description: 'first again', subagent_type: 'c' })] },
    ];
    const [first, second] = extractDelegations(messages, NOW, sha256Hex);
    expect(second?.id).toBe('t2');
    // Results are applied after all dispatches, so the re-seen call still gets its result.
    expect(first).toEqual({
      id: 't1',
      description: 'first again',
      subagent_type: 'c',
      status: 'cancelled',
      created_at: T0,
      result_brief: 'Task cancelled by user.',
      result_sha256: sha256Hex('Task cancelled by user.'),
      result_ref: 't1',
    });
  });

  it('uses status-only briefs, keeps stop reasons, and records completed without a brief bare', () => {
    const messages: LedgerMessage[] = [
      { type: 'ai', tool_calls: ['c1', 'c2', 'c3', 'c4'].map((id) => task(id, { description: id, subagent_type: 'x' })) },
      { type: 'tool', tool_call_id: 'c1', additional_kwargs: { subagent_status: 'polling_timed_out' } },
      { type: 'tool', tool_call_id: 'c2', additional_kwargs: { subagent_status: 'timed_out', subagent_error: '  ' } },
      { type: 'tool', tool_call_id: 'c3', additional_kwargs: { subagent_status: 'completed' } },
      { type: 'tool', tool_call_id: 'c4', additional_kwargs: { subagent_status: 'max_turns_reached', subagent_result_brief: 'partial' } },
    ];
    const [c1, c2, c3, c4] = extractDelegations(messages, NOW, sha256Hex);
    expect(c1).toMatchObject({ status: 'polling_timed_out', result_brief: 'Task polling timed out.', result_sha256: sha256Hex('Task polling timed out.') });
    expect(c2).toMatchObject({ status: 'timed_out', result_brief: 'Task timed out.' });
    expect(c3).toEqual({ id: 'c3', description: 'c3', subagent_type: 'x', status: 'completed', created_at: T0 });
    expect(c4).toMatchObject({ status: 'completed', stop_reason: 'turn_capped', result_brief: 'partial', result_sha256: sha256Hex('partial') });
  });

  it('reads descriptions defensively: prompt fallback, 200-char cut, raw function names, odd args', () => {
    const messages: LedgerMessage[] = [
      {
        type: 'ai',
        tool_calls: [
          task('d1', { description: 'd'.repeat(250), subagent_type: 'x' }),
          { id: 'd2', function: { name: 'task' }, args: { prompt: 'from prompt' } },
          task('d3', { description: { nested: true }, prompt: 42, subagent_type: null }),
          { id: 'd4', name: 'task', args: 'not an object' },
          // A cut must not leave half of a surrogate pair behind.
          task('d5', { description: `${'e'.repeat(199)}😀` }),
        ],
      },
    ];
    const out = extractDelegations(messages, NOW, sha256Hex);
    expect(out.map((e) => [e.id, e.description, e.subagent_type])).toEqual([
      ['d1', 'd'.repeat(200), 'x'],
      ['d2', 'from prompt', ''],
      ['d3', '42', ''],
      ['d4', '', ''],
      ['d5', 'e'.repeat(199), ''],
    ]);
  });

  it('accepts LangChain message instances too', () => {
    const messages = [
      new HumanMessage('go'),
      new AIMessage({ content: '', tool_calls: [{ id: 'lc1', name: 'task', args: { description: 'via langchain', prompt: 'p', subagent_type: 'bash' } }] }),
      new ToolMessage({ content: 'Task failed.', tool_call_id: 'lc1', additional_kwargs: { subagent_status: 'failed', subagent_error: 'Task failed.' } }),
    ];
    expect(extractDelegations(messages, NOW, sha256Hex)).toEqual([
      {
        id: 'lc1',
        description: 'via langchain',
        subagent_type: 'bash',
        status: 'failed',
        created_at: T0,
        result_brief: 'Task failed.',
        result_sha256: sha256Hex('Task failed.'),
        result_ref: 'lc1',
      },
    ]);
  });
});

describe('mergeDelegations (SPEC §6.6)', () => {
  it('returns the existing ledger for no updates', () => {
    const existing = [entry('a')];
    expect(mergeDelegations(existing, [])).toEqual(existing);
    expect(mergeDelegations([], [])).toEqual([]);
  });

  it('upserts by id in first-seen order', () => {
    const merged = mergeDelegations([entry('a'), entry('b')], [entry('c'), entry('a', { status: 'completed', result_brief: 'done' })]);
    expect(merged.map((e) => [e.id, e.status])).toEqual([
      ['a', 'completed'],
      ['b', 'in_progress'],
      ['c', 'in_progress'],
    ]);
  });

  it('never downgrades a terminal entry, but lets a terminal status replace another', () => {
    const done = entry('a', { status: 'completed', result_brief: 'done', run_id: 'r1' });
    expect(mergeDelegations([done], [entry('a', { description: 'redispatched' })])).toEqual([done]);
    const failed = entry('b', { status: 'failed' });
    expect(mergeDelegations([failed], [entry('b', { status: 'completed', result_brief: 'ok' })])[0]).toMatchObject({ status: 'completed', result_brief: 'ok' });
  });

  it('keeps the first created_at, and the previous run_id when the update has none', () => {
    const old = entry('a', { run_id: 'r1', created_at: '2025-01-01T00:00:00.000Z' });
    const update = entry('a', { status: 'completed', created_at: '2025-02-02T00:00:00.000Z' });
    expect(mergeDelegations([old], [update])).toEqual([{ ...update, created_at: '2025-01-01T00:00:00.000Z', run_id: 'r1' }]);
    expect(mergeDelegations([old], [{ ...update, run_id: 'r2' }])[0]).toMatchObject({ run_id: 'r2', created_at: '2025-01-01T00:00:00.000Z' });
  });

  it('keeps only the newest 50 entries', () => {
    const existing = Array.from({ length: 50 }, (_, i) => entry(`e${i}`));
    const merged = mergeDelegations(existing, [entry('n1'), entry('n2')]);
    expect(merged).toHaveLength(50);
    expect(merged[0]?.id).toBe('e2');
    expect(merged.slice(-2).map((e) => e.id)).toEqual(['n1', 'n2']);
  });

  it('does not mutate its inputs', () => {
    const existing = Object.freeze([Object.freeze(entry('a', { run_id: 'r1' }))]);
    const updates = Object.freeze([Object.freeze(entry('a', { status: 'completed' }))]);
    expect(() => mergeDelegations(existing, updates)).not.toThrow();
    expect(existing[0]?.status).toBe('in_progress');
    expect(updates[0]?.run_id).toBeUndefined();
  });
});

describe('tagRunId (SPEC §6.5, §6.11)', () => {
  it('tags new ids with the run and leaves existing ids to keep their own', () => {
    const ledger = [entry('old', { run_id: 'r1' }), entry('legacy')];
    const captured = [entry('old', { status: 'completed', run_id: 'stray' }), entry('legacy', { status: 'failed' }), entry('new')];
    const tagged = tagRunId(captured, 'r2', new Set(ledger.map((e) => e.id)));
    expect(tagged.map((e) => [e.id, e.run_id])).toEqual([
      ['old', undefined],
      ['legacy', undefined],
      ['new', 'r2'],
    ]);
    expect(mergeDelegations(ledger, tagged).map((e) => [e.id, e.run_id, e.status])).toEqual([
      ['old', 'r1', 'completed'],
      ['legacy', undefined, 'failed'],
      ['new', 'r2', 'in_progress'],
    ]);
  });

  it('leaves entries unchanged without a run id', () => {
    const captured = [entry('a'), entry('b', { run_id: 'r1' })];
    expect(tagRunId(captured, null, new Set())).toEqual(captured);
  });
});

describe('countRunDelegations (SPEC §6.1, §6.11)', () => {
  const ledger = [entry('a', { run_id: 'r1' }), entry('b', { run_id: 'r1' }), entry('c', { run_id: 'r2' }), entry('d'), entry('a', { run_id: 'r1' })];

  it('counts distinct ids of a known run; entries without a run id never match', () => {
    expect(countRunDelegations(ledger, 'r1')).toBe(2);
    expect(countRunDelegations(ledger, 'r2')).toBe(1);
    expect(countRunDelegations(ledger, 'r3')).toBe(0);
  });

  it('counts every distinct entry when the run is unknown (fail-restrictive)', () => {
    expect(countRunDelegations(ledger, null)).toBe(4);
    expect(countRunDelegations(ledger, '')).toBe(4);
    expect(countRunDelegations([], null)).toBe(0);
  });
});
