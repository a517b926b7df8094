import fc from 'fast-check';
import { formatKeyPath } from '../../src/config';
import type { LeadRunInput } from '../../src/contracts';
import {
  anyText,
  badPositiveInt,
  badThreadId,
  blankText,
  fuzzParams,
  mutateOne,
  notString,
  plainText,
  someText,
  threadIdText,
  unknownKey,
} from './fuzz-support';
import { expectBadRequest, expectClientError, gatewayUnderTest, KNOWN_RUN, postJson, encodeText, requestLineSafe, unknownKeyField, type GatewayUnderTest } from './gateway-fixture';

let gw: GatewayUnderTest;
beforeAll(async () => {
  gw = await gatewayUnderTest();
  // Rows for the events query of KNOWN_RUN: two tasks, so `task_id` filters something.
  await gw.stores.events.putBatch(
    Array.from({ length: 30 }, (_, i) => ({
      dedupeKey: `k${i}`,
      runId: KNOWN_RUN.runId,
      threadId: KNOWN_RUN.threadId,
      category: 'subagent' as const,
      event: 'subagent.step',
      taskId: `0.${i % 2}`,
      payload: { i },
    })),
  );
});
afterAll(async () => gw.close());
beforeEach(() => gw.reset());

const runUrl = (suffix: string, threadId: string = KNOWN_RUN.threadId, runId: string = KNOWN_RUN.runId) =>
  `/api/threads/${encodeText(threadId)}/runs/${encodeText(runId)}${suffix}`;

const RUN_FIELDS = ['message', 'thread_id', 'user_id', 'agent', 'model', 'max_concurrent', 'max_total'];

const validRunBody: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    message: someText(200),
    thread_id: threadIdText,
    user_id: plainText(50),
    model: fc.constant('demo'),
    max_concurrent: fc.integer({ min: 1, max: 1000 }),
    max_total: fc.integer({ min: 1, max: 1000 }),
  },
  { requiredKeys: ['message'] },
);

describe('POST /api/runs', () => {
  it('starts a run for every valid body, with the fields as sent (trimmed)', async () => {
    await fc.assert(
      fc.asyncProperty(validRunBody, async (body) => {
        gw.reset();
        const response = await postJson(gw, '/api/runs', body);
        expect({ status: response.statusCode, body: response.body, logged: gw.logged }).toMatchObject({ status: 201 });
        const input = gw.started[0] as LeadRunInput;
        expect(gw.started).toHaveLength(1);
        expect(input).toMatchObject({ message: (body.message as string).trim(), modelName: 'demo', userId: (body.user_id as string | undefined) ?? 'default' });
        if (body.thread_id !== undefined) expect(input.threadId).toBe(body.thread_id);
        const created = JSON.parse(response.body) as { run_id: string; thread_id: string };
        expect(created).toMatchObject({ run_id: input.runId, thread_id: input.threadId });
      }),
      fuzzParams(),
    );
  });

  it('refuses a body with one bad field with a 400 naming that field, before Temporal is asked anything', async () => {
    const bad = mutateOne(validRunBody, {
      message: fc.oneof(fc.constant(undefined), notString, blankText),
      thread_id: fc.oneof(notString, badThreadId),
      user_id: fc.oneof(notString, blankText, fc.constant('u'.repeat(201))),
      model: fc.oneof(notString, blankText),
      max_concurrent: badPositiveInt,
      max_total: badPositiveInt,
    });
    await fc.assert(
      fc.asyncProperty(bad, async ({ value, field }) => {
        gw.reset();
        expectBadRequest(await postJson(gw, '/api/runs', value), gw.logged, field);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });

  it('refuses an agent or model that is not configured, naming it, and starts nothing', async () => {
    const bad = fc.tuple(validRunBody, fc.constantFrom('agent', 'model'), someText(30)).map(([body, field, name]) => {
      const { thread_id: _thread, ...rest } = body;
      return { value: { ...rest, [field]: name }, field };
    });
    await fc.assert(
      fc.asyncProperty(bad.filter(({ value, field }) => field !== 'model' || (value.model as string).trim() !== 'demo'), async ({ value, field }) => {
        gw.reset();
        expectBadRequest(await postJson(gw, '/api/runs', value), gw.logged, field);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });

  it('refuses an unknown field by its name', async () => {
    const bad = fc.tuple(validRunBody, unknownKey(RUN_FIELDS), fc.jsonValue({ maxDepth: 1 }));
    await fc.assert(
      fc.asyncProperty(bad, async ([body, key, extra]) => {
        gw.reset();
        const value = { ...body };
        // defineProperty: assigning `__proto__` would set the prototype rather than add a key.
        Object.defineProperty(value, key, { value: extra, enumerable: true, configurable: true, writable: true });
        expectBadRequest(await postJson(gw, '/api/runs', value), gw.logged, unknownKeyField(key, extra));
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });

  it('answers any body at all, JSON or not, with a JSON client error or a start, never a 500', async () => {
    const payload = fc.oneof(
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      anyText(60),
      fc.constantFrom('', '{', '{"message":', '{"message":"x",}', '[]', 'null', '{"message":"x"}{"message":"y"}', '\ufeff{"message":"x"}'),
    );
    const contentType = fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', undefined);
    await fc.assert(
      fc.asyncProperty(payload, contentType, async (text, type) => {
        gw.reset();
        const response = await gw.send({ method: 'POST', path: '/api/runs', headers: type === undefined ? {} : { 'content-type': type }, payload: text });
        if (response.statusCode === 201) return;
        expectClientError(response, gw.logged);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });
});

describe('POST .../answer and .../tasks/:task/extend', () => {
  it('accepts every valid body (it reaches the run lookup: 404 for an unknown run)', async () => {
    const request = fc.oneof(
      someText(300).map((answer) => ({ url: runUrl('/answer', 't1', 'run_missing'), body: { answer } })),
      fc.integer({ min: 1, max: 86_400 }).map((seconds) => ({ url: runUrl('/tasks/0.1/extend', 't1', 'run_missing'), body: { seconds } })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ url, body }) => {
        gw.reset();
        const response = await postJson(gw, url, body);
        expect({ status: response.statusCode, code: (JSON.parse(response.body) as { error: { code: string } }).error.code }).toEqual({ status: 404, code: 'not_found' });
        expect(gw.temporalCalls).toEqual(['describe']);
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad body, naming the field, before the run is looked up', async () => {
    const answer = fc.oneof(
      fc.oneof(fc.constant(undefined), notString, blankText, fc.constant(`${'a'.repeat(100_001)}`)).map((v) => ({ value: v === undefined ? {} : { answer: v }, field: 'answer' })),
      fc.tuple(unknownKey(['answer', '__proto__']), fc.jsonValue({ maxDepth: 1 })).map(([key, v]) => ({ value: { answer: 'yes', [key]: v }, field: unknownKeyField(key, v) })),
    );
    const seconds = fc.oneof(
      fc.oneof(fc.constant(undefined), badPositiveInt, fc.integer({ min: 86_401 })).map((v) => ({ value: v === undefined ? {} : { seconds: v }, field: 'seconds' })),
      fc.tuple(unknownKey(['seconds', '__proto__']), fc.jsonValue({ maxDepth: 1 })).map(([key, v]) => ({ value: { seconds: 60, [key]: v }, field: unknownKeyField(key, v) })),
    );
    const request = fc.oneof(
      answer.map((c) => ({ ...c, url: runUrl('/answer') })),
      seconds.map((c) => ({ ...c, url: runUrl('/tasks/0.1/extend') })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ url, value, field }) => {
        gw.reset();
        expectBadRequest(await postJson(gw, url, value), gw.logged, field);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });

  it('refuses bad path parameters by their API names, before the run is looked up', async () => {
    const request = fc.oneof(
      badThreadId.filter((id) => id !== '' && id.length < 300).map((id) => ({ url: runUrl('/answer', id, 'r1'), field: 'thread_id' })),
      fc.oneof(blankText.filter((s) => s !== ''), fc.constant('r'.repeat(201))).map((id) => ({ url: runUrl('/answer', 't1', id), field: 'run_id' })),
      fc.oneof(blankText.filter((s) => s !== ''), fc.constant('t'.repeat(201))).map((id) => ({ url: `${runUrl('/tasks/')}${encodeText(id)}/extend`, field: 'task_id' })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ url, field }) => {
        gw.reset();
        const body = url.endsWith('/extend') ? { seconds: 60 } : { answer: 'yes' };
        expectBadRequest(await postJson(gw, url, body), gw.logged, field);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });
});

describe('GET .../events', () => {
  const known = ['task_id', 'after_seq', 'limit'];

  it('answers every valid query with the page it asks for', async () => {
    const query = fc.record(
      { task_id: fc.constantFrom('0.0', '0.1', 'none'), after_seq: fc.integer({ min: 0, max: 40 }), limit: fc.integer({ min: 1, max: 1000 }) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, fc.boolean(), async (q, padded) => {
        gw.reset();
        // Leading zeros are still plain decimal integers.
        const text = new URLSearchParams(Object.entries(q).map(([k, v]): [string, string] => [k, typeof v === 'number' && padded ? `00${v}` : String(v)])).toString();
        const response = await gw.send({ method: 'GET', path: `${runUrl('/events')}?${text}` });
        expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 200 });
        const page = JSON.parse(response.body) as { events: Array<{ seq: number; task_id: string | null }>; next_after_seq: number };
        expect(page.events.length).toBeLessThanOrEqual(q.limit ?? 1000);
        for (const event of page.events) {
          expect(event.seq).toBeGreaterThan(q.after_seq ?? 0);
          if (q.task_id !== undefined) expect(event.task_id).toBe(q.task_id);
        }
      }),
      fuzzParams(),
    );
  });

  it('refuses any other query string with a 400 naming the parameter, before the run is looked up', async () => {
    const badValue = fc.oneof(
      fc.constantFrom('-1', '1.5', '1e3', '0x10', ' 1', '1 ', '', '+1', 'NaN', '9'.repeat(16), '１'),
      anyText(8).filter((s) => !/^\d{1,15}$/.test(s)),
    );
    const query = fc.oneof(
      fc.tuple(fc.constantFrom('after_seq', 'limit'), badValue).map(([field, v]) => ({ text: `${field}=${encodeText(v)}`, field })),
      fc.constantFrom('0', '1001', '99999').map((v) => ({ text: `limit=${v}`, field: 'limit' })),
      blankText.map((v) => ({ text: `task_id=${encodeText(v)}`, field: 'task_id' })),
      // A repeated parameter arrives as a list.
      fc.constantFrom(...known).map((field) => ({ text: `${field}=1&${field}=2`, field })),
      fc.tuple(unknownKey([...known, '__proto__']).filter((k) => k.trim() !== ''), anyText(6)).map(([key, v]) => ({
        text: `limit=5&${encodeText(key)}=${encodeText(v)}`,
        field: formatKeyPath([key]),
      })),
    );
    await fc.assert(
      fc.asyncProperty(query, async ({ text, field }) => {
        gw.reset();
        expectBadRequest(await gw.send({ method: 'GET', path: `${runUrl('/events')}?${text}` }), gw.logged, field);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });

  it('answers any raw path segment with a page or a JSON client error naming a path parameter, never a 500', async () => {
    const segment = fc.oneof(
      anyText(30).map(requestLineSafe),
      // Past the router's parameter limit (512).
      fc.integer({ min: 513, max: 700 }).map((n) => 'x'.repeat(n)),
    ).filter((s) => s !== '' && !s.includes('/') && !s.includes('?'));
    await fc.assert(
      fc.asyncProperty(segment, fc.constantFrom('thread', 'run'), async (raw, which) => {
        gw.reset();
        const path = which === 'thread' ? `/api/threads/${raw}/runs/r1/events` : `/api/threads/t1/runs/${raw}/events`;
        const response = await gw.send({ method: 'GET', path });
        if (response.statusCode === 200) return;
        const body = expectClientError(response, gw.logged);
        if (response.statusCode === 400) expect(['thread_id', 'run_id', 'path']).toContain(body.error.field);
      }),
      fuzzParams(),
    );
  });

  it('answers any raw query string with a page or a JSON client error, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(anyText(60), async (raw) => {
        gw.reset();
        const response = await gw.send({ method: 'GET', path: `${runUrl('/events')}?${requestLineSafe(raw)}` });
        if (response.statusCode !== 200) expectClientError(response, gw.logged);
      }),
      fuzzParams(),
    );
  });
});
