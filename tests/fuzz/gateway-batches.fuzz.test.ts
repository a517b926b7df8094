import fc from 'fast-check';
import { formatKeyPath } from '../../src/config';
import { BatchItemStatus } from '../../src/contracts';
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
  toWellFormed,
  unknownKey,
} from './fuzz-support';
import { encodeText, expectBadRequest, expectClientError, gatewayUnderTest, MAX_ITEMS_PER_BATCH, postJson, unknownKeyField, type GatewayUnderTest } from './gateway-fixture';

let gw: GatewayUnderTest;
beforeAll(async () => {
  gw = await gatewayUnderTest();
});
afterAll(async () => gw.close());

const STATUSES: readonly string[] = Object.values(BatchItemStatus);
const BATCH_FIELDS = ['title', 'subagent_type', 'items', 'max_live_items', 'max_running_items', 'batch_id', 'model', 'user_id'];

const storable = (s: string): boolean => !s.includes('\u0000') && s === toWellFormed(s);
const prompt = someText(120).filter(storable);
const itemKey = plainText(20);

/** 1-5 items, all keyed (unique keys) or none. */
const validItems = fc.oneof(
  fc.array(fc.record({ prompt, acceptance_criteria: fc.array(plainText(20), { maxLength: 3 }) }, { requiredKeys: ['prompt'] }), { minLength: 1, maxLength: 5 }),
  fc
    .uniqueArray(itemKey, { minLength: 1, maxLength: 5 })
    .chain((keys) => fc.tuple(...keys.map((key) => prompt.map((p) => ({ key, prompt: p }))))),
);

const validBatchBody: fc.Arbitrary<Record<string, unknown>> = fc.record(
    {
      title: someText(100).filter(storable),
      subagent_type: fc.constant('general-purpose'),
      items: validItems,
      max_live_items: fc.integer({ min: 1, max: 1_000_000 }),
      max_running_items: fc.integer({ min: 1, max: 1_000 }),
      batch_id: threadIdText.map((id) => id.slice(0, 100)),
      model: fc.constant('demo'),
    },
  { requiredKeys: ['title', 'subagent_type', 'items'] },
);

// A suffix per execution (shrinking runs a value again) keeps caller-chosen batch ids apart: an id
// reused with other items is a 409, and a stored batch would hide a refused request's non-write.
let executions = 0;
function freshId(body: Record<string, unknown>): Record<string, unknown> {
  executions += 1;
  const id = body.batch_id;
  return typeof id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]{0,100}$/.test(id) ? { ...body, batch_id: `${id}-${executions}` } : body;
}

/** One item of a valid body made bad; the field is the item's path. */
const badItem = fc.tuple(validBatchBody, fc.nat()).chain(([body, n]) => {
  const items = body.items as Array<Record<string, unknown>>;
  const i = n % items.length;
  const keyed = items[0]?.key !== undefined;
  const withItem = (change: (item: Record<string, unknown>) => Record<string, unknown>, at = i) => ({
    value: { ...body, items: items.map((item, j) => (j === i ? change(item) : item)) },
    field: `items.${at}`,
  });
  const badKey = fc.oneof(
    notString,
    fc.constantFrom('', ' k', 'k ', 'a\u0000b', 'a\nb', 'x'.repeat(201), 'k\ud800', '\udfff'),
    // A duplicate of the previous item's key (reported at the later item); the first has none before it.
    fc.constant(i > 0 ? items[i - 1]?.key : ''),
  );
  return fc.oneof(
    fc.oneof(fc.constant(undefined), notString, blankText, fc.constantFrom('a\u0000b', 'p'.repeat(100_001), 'a\ud800b', '\udc00')).map((p) =>
      withItem(({ prompt: _p, ...rest }) => (p === undefined ? rest : { ...rest, prompt: p })),
    ),
    fc.oneof(notString.filter((v) => !Array.isArray(v) || v.some((c) => typeof c !== 'string')), fc.constant(['ok', 'a\u0000']), fc.constant(Array.from({ length: 101 }, () => 'c'))).map((c) => withItem((item) => ({ ...item, acceptance_criteria: c }))),
    fc.tuple(unknownKey(['key', 'prompt', 'acceptance_criteria', '__proto__']), fc.jsonValue({ maxDepth: 1 })).filter(([, v]) => !JSON.stringify(v).includes('"__proto__":'))
      .map(([k, v]) => withItem((item) => ({ ...item, [k]: v }))),
    // Keyed items: a bad key. Unkeyed ones: a key on one item only (the first unkeyed item is named).
    keyed ? badKey.map((k) => withItem((item) => ({ ...item, key: k }))) : fc.constant(items.length > 1 ? withItem((item) => ({ ...item, key: 'only-me' }), i === 0 ? 1 : 0) : withItem(({ prompt: _p, ...rest }) => rest)),
  );
});

async function expectNothingStored(body: Record<string, unknown>): Promise<void> {
  expect({ batchWrites: gw.batchWrites, temporal: gw.temporalCalls }).toEqual({ batchWrites: [], temporal: [] });
  if (typeof body.batch_id === 'string' && /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/.test(body.batch_id)) {
    expect(await gw.stores.batches.getBatch(body.batch_id, 'default')).toBeNull();
  }
}

describe('POST /api/batches', () => {
  it('stores and starts every valid batch, with its items as sent', async () => {
    await fc.assert(
      fc.asyncProperty(validBatchBody, async (generated) => {
        gw.reset();
        const body = freshId(generated);
        const response = await postJson(gw, '/api/batches', body);
        expect({ status: response.statusCode, body: response.body, logged: gw.logged }).toMatchObject({ status: 201 });
        const { batch_id: id } = JSON.parse(response.body) as { batch_id: string };
        if (body.batch_id !== undefined) expect(id).toBe(body.batch_id);
        expect({ writes: gw.batchWrites, temporal: gw.temporalCalls }).toEqual({ writes: ['createBatch'], temporal: ['start'] });
        const items = body.items as Array<{ key?: string; prompt: string }>;
        const stored = await gw.stores.batches.listItems(id, 'default', { limit: 10 });
        expect(stored).toHaveLength(items.length);
        for (const [i, item] of items.entries()) {
          const key = item.key ?? stored[i]?.key ?? '';
          expect((await gw.stores.batches.getItem(id, 'default', key))?.prompt).toBe(item.prompt);
        }
      }),
      fuzzParams(),
    );
  });

  it('refuses a body with one bad field with a 400 naming that field, and stores and starts nothing', async () => {
    const bad = mutateOne(validBatchBody, {
      title: fc.oneof(fc.constant(undefined), notString, blankText, fc.constantFrom('t'.repeat(501), 'a\u0000b', 'a\udbffb')),
      subagent_type: fc.oneof(fc.constant(undefined), notString, blankText, fc.constantFrom('nobody', 'General-Purpose', 'bash ')),
      items: fc.oneof(
        fc.constant(undefined),
        notString.filter((v) => !Array.isArray(v) || v.length === 0),
        fc.integer({ min: MAX_ITEMS_PER_BATCH + 1, max: 40 }).map((n) => Array.from({ length: n }, () => ({ prompt: 'p' }))),
      ),
      max_live_items: badPositiveInt,
      max_running_items: badPositiveInt,
      batch_id: fc.oneof(notString, badThreadId),
      model: fc.oneof(notString, blankText, fc.constantFrom('gpt-x', 'Demo')),
      user_id: fc.oneof(notString, blankText, fc.constantFrom('u'.repeat(201), 'a\u0001b')),
    });
    await fc.assert(
      fc.asyncProperty(fc.oneof(bad, badItem), async (mutated) => {
        gw.reset();
        const { field } = mutated;
        const value = field === 'batch_id' ? mutated.value : freshId(mutated.value);
        expectBadRequest(await postJson(gw, '/api/batches', value), gw.logged, field);
        await expectNothingStored(value);
      }),
      fuzzParams(),
    );
  });

  it('refuses an unknown field by its name, and stores nothing', async () => {
    await fc.assert(
      fc.asyncProperty(validBatchBody, unknownKey([...BATCH_FIELDS, '__proto__']), fc.jsonValue({ maxDepth: 1 }), async (generated, key, extra) => {
        gw.reset();
        const body = freshId(generated);
        expectBadRequest(await postJson(gw, '/api/batches', { ...body, [key]: extra }), gw.logged, unknownKeyField(key, extra));
        await expectNothingStored(body);
      }),
      fuzzParams(),
    );
  });

  it('answers any body at all with a JSON client error or a start, never a 500', async () => {
    const payload = fc.oneof(
      fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
      fc.record({ title: fc.jsonValue({ maxDepth: 1 }), subagent_type: fc.jsonValue({ maxDepth: 1 }), items: fc.array(fc.jsonValue({ maxDepth: 2 }), { maxLength: 3 }) }).map((v) => JSON.stringify(v)),
      anyText(60),
    );
    await fc.assert(
      fc.asyncProperty(payload, async (text) => {
        gw.reset();
        const response = await gw.send({ method: 'POST', path: '/api/batches', headers: { 'content-type': 'application/json' }, payload: text });
        if (response.statusCode === 201) return;
        expectClientError(response, gw.logged);
        expect(gw.batchWrites).toEqual([]);
      }),
      fuzzParams(),
    );
  });
});

describe('GET /api/batches/:batch_id/items', () => {
  const batchId = 'fuzz-items';
  const keys = Array.from({ length: 12 }, (_, i) => `k${String(i).padStart(2, '0')}`);
  beforeAll(async () => {
    const response = await postJson(gw, '/api/batches', { title: 'items', subagent_type: 'general-purpose', batch_id: batchId, items: keys.map((key) => ({ key, prompt: `do ${key}` })) });
    expect(response.statusCode).toBe(201);
  });
  const itemsUrl = (query: string) => `/api/batches/${batchId}/items?${query}`;

  it('answers every valid query with the page it asks for', async () => {
    const query = fc.record(
      { after_key: fc.oneof(fc.constantFrom(...keys), plainText(5)), limit: fc.integer({ min: 1, max: 1000 }), status: fc.constantFrom(...STATUSES) },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(query, async (q) => {
        gw.reset();
        const text = Object.entries(q)
          .map(([k, v]) => `${k}=${encodeText(String(v))}`)
          .join('&');
        const response = await gw.send({ method: 'GET', path: itemsUrl(text) });
        expect({ status: response.statusCode, body: response.body }).toMatchObject({ status: 200 });
        const page = JSON.parse(response.body) as { items: Array<{ key: string; status: string }>; next_after_key: string | null };
        expect(page.items.length).toBeLessThanOrEqual(q.limit ?? 100);
        for (const item of page.items) {
          if (q.after_key !== undefined) expect(item.key > q.after_key).toBe(true);
          if (q.status !== undefined) expect(item.status).toBe(q.status);
        }
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad query or batch id with a 400 naming it, before the batch is looked up', async () => {
    const request = fc.oneof(
      fc.oneof(fc.constantFrom('0', '1001', '-1', '1.5', '', 'ten', '1e2'), anyText(6).filter((s) => !/^\d{1,15}$/.test(s))).map((v) => ({ path: itemsUrl(`limit=${encodeText(v)}`), field: 'limit' })),
      fc.oneof(fc.constantFrom('', 'done', 'PENDING', ' pending'), anyText(8).filter((v) => !STATUSES.includes(v))).map((v) => ({ path: itemsUrl(`status=${encodeText(v)}`), field: 'status' })),
      fc.constant({ path: itemsUrl('after_key='), field: 'after_key' }),
      fc.constantFrom('after_key', 'limit', 'status').map((k) => ({ path: itemsUrl(`${k}=1&${k}=2`), field: k })),
      fc.tuple(unknownKey(['after_key', 'limit', 'status', '__proto__']).filter((k) => k.trim() !== ''), anyText(5)).map(([k, v]) => ({
        path: itemsUrl(`${encodeText(k)}=${encodeText(v)}`),
        field: formatKeyPath([k]),
      })),
      badThreadId.filter((id) => id !== '' && id.length <= 300).map((id) => ({ path: `/api/batches/${encodeText(id)}/items`, field: 'batch_id' })),
    );
    await fc.assert(
      fc.asyncProperty(request, async ({ path, field }) => {
        gw.reset();
        expectBadRequest(await gw.send({ method: 'GET', path }), gw.logged, field);
        expect(gw.temporalCalls).toEqual([]);
      }),
      fuzzParams(),
    );
  });
});
