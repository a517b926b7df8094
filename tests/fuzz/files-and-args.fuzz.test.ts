import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ToolInputParsingException } from '@langchain/core/tools';
import fc from 'fast-check';
import { parse, stringify } from 'yaml';
import { parseBatchItemsFile } from '../../src/cli/batch-items-file';
import { isConfigError, parseConfigText } from '../../src/config';
import { BatchTaskToolArgsSchema, type CatalogEntry } from '../../src/contracts';
import { loadScenario } from '../../src/models/scenario';
import { createReadFileTool, createStrReplaceTool, createWriteFileTool, ThreadWorkspace } from '../../src/tools';
import { createWebFetchTool } from '../../src/tools/web-fetch-tool';
import { validateTaskCall } from '../../src/workflows/validate-task-call';
import { anyText, badPositiveInt, blankText, fuzzParams, mutateOne, notNumber, notString, plainText, someText, unknownKey } from './fuzz-support';

const dir = mkdtempSync(join(tmpdir(), 'deerflow-fuzz-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The message of what `run` throws, or null when it returns. */
function thrown(run: () => unknown): { error: unknown; message: string } | null {
  try {
    run();
    return null;
  } catch (error) {
    return { error, message: error instanceof Error ? error.message : String(error) };
  }
}

describe('task tool arguments (validateTaskCall)', () => {
  const catalog = [{ name: 'general-purpose', timeoutSeconds: 900 }] as unknown as CatalogEntry[];
  const valid = fc.record(
    { description: someText(30), prompt: someText(200), subagent_type: fc.constant('general-purpose'), acceptance_criteria: fc.array(anyText(20), { maxLength: 5 }), timeout_seconds: fc.integer({ min: 1, max: 10_000 }) },
    { requiredKeys: ['description', 'prompt', 'subagent_type'] },
  );

  it('accepts every valid call, clamping the timeout to the subagent\'s', () => {
    fc.assert(
      fc.property(valid, (args) => {
        const check = validateTaskCall({ id: 'c1', name: 'task', args, argsTruncated: false }, catalog);
        expect(check).toMatchObject({ ok: true, subagent: { timeoutSeconds: Math.min((args.timeout_seconds as number | undefined) ?? 900, 900) } });
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad argument with an error naming it', () => {
    const bad = fc.oneof(
      mutateOne(valid, {
        description: fc.oneof(fc.constant(undefined), notString, blankText),
        prompt: fc.oneof(fc.constant(undefined), notString, blankText),
        subagent_type: fc.oneof(fc.constant(undefined), notString, blankText),
        acceptance_criteria: fc.oneof(notString.filter((v) => !Array.isArray(v) || v.some((c) => typeof c !== 'string')), fc.constant(Array.from({ length: 101 }, () => 'c'))),
        timeout_seconds: badPositiveInt,
      }),
      fc.tuple(valid, unknownKey(['description', 'prompt', 'subagent_type', 'acceptance_criteria', 'timeout_seconds']).filter((k) => k !== '__proto__')).map(([args, key]) => ({ value: { ...args, [key]: 1 }, field: key })),
    );
    fc.assert(
      fc.property(bad, ({ value, field }) => {
        const check = validateTaskCall({ id: 'c1', name: 'task', args: value, argsTruncated: false }, catalog);
        expect(check.ok).toBe(false);
        expect(check.ok ? '' : check.error).toContain(field);
        expect(check.ok ? '' : check.error).toMatch(/^Invalid task arguments: /);
      }),
      fuzzParams(),
    );
  });
});

describe('batch_task tool arguments', () => {
  const item = fc.record({ key: someText(20), prompt: someText(100), acceptance_criteria: fc.array(anyText(10), { maxLength: 3 }) }, { requiredKeys: ['key', 'prompt'] });
  const valid = fc.record(
    { title: someText(40), items: fc.array(item, { minLength: 1, maxLength: 5 }), subagent_type: someText(20), max_live_items: fc.integer({ min: 1 }), max_running_items: fc.integer({ min: 1 }) },
    { requiredKeys: ['title', 'items', 'subagent_type'] },
  );

  it('accepts every valid argument set as given (strings trimmed)', () => {
    fc.assert(
      fc.property(valid, (args) => {
        const parsed = BatchTaskToolArgsSchema.parse(args);
        expect(parsed.items.map((i) => i.key)).toEqual((args.items as Array<{ key: string }>).map((i) => i.key.trim()));
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad argument with an issue at its path', () => {
    const bad = mutateOne(valid, {
      title: fc.oneof(fc.constant(undefined), notString, blankText),
      items: fc.oneof(fc.constant(undefined), fc.constant([]), notString.filter((v) => !Array.isArray(v) || v.length === 0), fc.constant([{ key: 'k' }]), fc.constant([{ key: ' ', prompt: 'p' }])),
      subagent_type: fc.oneof(fc.constant(undefined), notString, blankText),
      max_live_items: badPositiveInt,
      max_running_items: badPositiveInt,
    });
    fc.assert(
      fc.property(bad, ({ value, field }) => {
        const parsed = BatchTaskToolArgsSchema.safeParse(value);
        expect(parsed.success).toBe(false);
        expect(parsed.error?.issues[0]?.path[0]).toBe(field);
      }),
      fuzzParams(),
    );
  });
});

describe('file tool and web_fetch arguments', () => {
  const options = { workspace: new ThreadWorkspace(dir, 'fuzz'), max_output_chars: 1000, max_file_bytes: 10_000 };
  const tools = { read_file: createReadFileTool(options), write_file: createWriteFileTool(options), str_replace: createStrReplaceTool(options) };
  const webFetch = createWebFetchTool({ timeout_seconds: 1, max_output_chars: 1000, allow_private_networks: false, max_bytes: 1000, user_agent: 'fuzz' } as never);
  const cases = fc.oneof(
    fc.oneof(fc.constant(undefined), notString).map((path) => ({ tool: 'read_file' as const, args: path === undefined ? {} : { path }, field: 'path' })),
    fc.oneof(notNumber, fc.integer({ max: 0 }), fc.constant(1.5)).chain((n) => fc.constantFrom('start_line', 'end_line').map((field) => ({ tool: 'read_file' as const, args: { path: 'a.txt', [field]: n }, field }))),
    fc.oneof(fc.constant(undefined), notString).map((content) => ({ tool: 'write_file' as const, args: content === undefined ? { path: 'a.txt' } : { path: 'a.txt', content }, field: 'content' })),
    notString.filter((v) => typeof v !== 'boolean').map((append) => ({ tool: 'write_file' as const, args: { path: 'a.txt', content: 'x', append }, field: 'append' })),
    fc.tuple(fc.constantFrom('old_str', 'new_str'), fc.oneof(fc.constant(undefined), notString)).map(([field, v]) => {
      const args: Record<string, unknown> = { path: 'a.txt', old_str: 'a', new_str: 'b' };
      if (v === undefined) delete args[field];
      else args[field] = v;
      return { tool: 'str_replace' as const, args, field };
    }),
    fc.oneof(fc.constant(undefined), notString, fc.constant('')).map((url) => ({ tool: 'web_fetch' as const, args: url === undefined ? {} : { url }, field: 'url' })),
  );

  it('refuse bad arguments before running, naming the argument', async () => {
    await fc.assert(
      fc.asyncProperty(cases, async ({ tool, args, field }) => {
        const target = tool === 'web_fetch' ? webFetch : tools[tool];
        const error = await target.invoke(args as never).then(
          () => null,
          (err: unknown) => err,
        );
        expect(error).toBeInstanceOf(ToolInputParsingException);
        expect((error as Error).message).toMatch(new RegExp(`at ${field}\\b`));
      }),
      fuzzParams(),
    );
  });

  it('write_file then read_file round-trips any text', async () => {
    await fc.assert(
      fc.asyncProperty(plainText(200), async (content) => {
        await tools.write_file.invoke({ path: 'round.txt', content });
        expect(await tools.read_file.invoke({ path: 'round.txt' })).toBe(content);
      }),
      fuzzParams(),
    );
  });
});

describe('config files (YAML text)', () => {
  const valid = fc.record(
    {
      subagents: fc.record({ max_total_per_run: fc.integer({ min: 1, max: 50 }) }),
      subagent_batches: fc.record({ enabled: fc.boolean(), max_items_per_batch: fc.integer({ min: 1, max: 100_000 }) }),
      sandbox: fc.record({ max_output_chars: fc.integer({ min: 1000, max: 100_000 }) }),
    },
    { requiredKeys: [] },
  );

  it('accepts every valid config and keeps its values', () => {
    fc.assert(
      fc.property(valid, (doc) => {
        const config = parseConfigText(stringify(doc), null);
        expect(config).toMatchObject(doc);
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad value with a problem line naming its key path', () => {
    const bad = fc.oneof(
      fc.tuple(fc.constantFrom('subagents.max_total_per_run', 'subagent_batches.max_items_per_batch', 'sandbox.max_output_chars'), fc.oneof(notNumber, fc.integer({ max: 0 }), fc.constant(0.5))),
      fc.tuple(fc.constantFrom('subagent_batches.enabled', 'sandbox.allow_host_bash'), notString.filter((v) => typeof v !== 'boolean')),
      fc.tuple(fc.constant('temporal.address'), notString.filter((v) => v !== null)),
      fc.tuple(fc.constant('default_model'), fc.oneof(notString.filter((v) => v !== null), fc.constant('nope'))),
      unknownKey([]).filter((k) => !['models', 'default_model', 'token_budget', 'subagents', 'subagent_runtime', 'subagent_batches', 'loop_detection', 'summarization', 'verification', 'agents', 'store', 'temporal', 'sandbox', 'lead_tools', 'lead_runs', 'web_fetch', 'gateway', '<<'].includes(k) && /^[a-z_]+$/.test(k)).map((k) => [k, 1] as const),
    );
    fc.assert(
      fc.property(bad, ([path, value]) => {
        const [section = '', key] = path.split('.');
        const doc = key === undefined ? { [section]: value } : { [section]: { [key]: value } };
        const result = thrown(() => parseConfigText(stringify(doc), null));
        expect(result).not.toBeNull();
        expect(isConfigError(result?.error)).toBe(true);
        expect((result?.error as { problems: string[] }).problems.some((p) => p.startsWith(`${path}: `))).toBe(true);
      }),
      fuzzParams(),
    );
  });

  it('answers any text with a config or a ConfigError, never another exception', () => {
    const text = fc.oneof(anyText(80), fc.jsonValue({ maxDepth: 3 }).map((v) => stringify(v)), fc.constantFrom('a: &x [*x]', 'a: !env X', '? [a]\n: b', 'models: [', '\t- x'));
    fc.assert(
      fc.property(text, (yaml) => {
        const result = thrown(() => parseConfigText(yaml, null));
        if (result !== null) expect({ isConfigError: isConfigError(result.error), message: result.message }).toMatchObject({ isConfigError: true });
      }),
      fuzzParams(),
    );
  });
});

describe('scenario files of the scripted model', () => {
  const file = join(dir, 'scenario.yaml');
  const turn = fc.record(
    {
      content: anyText(40),
      tool_calls: fc.array(fc.record({ name: someText(10), args: fc.dictionary(plainText(5), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }) }, { requiredKeys: ['name'] }), { maxLength: 2 }),
      usage: fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat() }),
      repeat: fc.oneof(fc.integer({ min: 1, max: 10 }), fc.constant('forever' as const)),
      finish_reason: someText(10),
    },
    { requiredKeys: ['content'] },
  );
  const valid = fc.record({ lead: fc.array(turn, { maxLength: 3 }), subagents: fc.array(fc.record({ match: fc.oneof(fc.constant('*'), plainText(10)), turns: fc.array(turn, { maxLength: 2 }) }), { maxLength: 2 }) }, { requiredKeys: [] });

  it('loads every valid scenario with its turns', () => {
    fc.assert(
      fc.property(valid, (doc) => {
        const text = stringify(doc);
        writeFileSync(file, text);
        const scenario = loadScenario(file);
        // Against what the file says: the yaml writer does not round-trip every text (a block
        // scalar of whitespace-only lines reads back without its leading spaces).
        const written = parse(text) as typeof doc;
        expect(scenario.lead?.map((t) => t.content)).toEqual(written.lead?.map((t) => t.content));
        expect(scenario.subagents?.length).toBe(doc.subagents?.length);
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad turn with a message naming its path', () => {
    const bad = fc.tuple(valid.filter((d) => (d.lead?.length ?? 0) > 0), fc.nat()).chain(([doc, n]) => {
      const lead = doc.lead ?? [];
      const i = n % lead.length;
      const at = (field: string, value: unknown) => ({ doc: { ...doc, lead: lead.map((t, j) => (j === i ? { ...t, [field]: value } : t)) }, path: `lead.${i}.${field}` });
      return fc.oneof(
        notString.filter((v) => v !== null).map((v) => at('content', v)),
        fc.oneof(notNumber, fc.integer({ max: -1 }), fc.constant(1.5)).map((v) => at('delay_ms', v)),
        fc.oneof(fc.integer({ max: 0 }), fc.constantFrom('always', 1.5, true)).map((v) => at('repeat', v)),
        fc.oneof(notString.filter((v) => !Array.isArray(v) && v !== null)).map((v) => at('tool_calls', v)),
        fc.constantFrom('', 1, null).map((v) => at('error', v)),
        fc.constant(at('usage', { input_tokens: -1, output_tokens: 0 })),
        fc.constant(at('nonsense', 1)).map((c) => ({ ...c, path: `lead.${i}` })),
      );
    });
    fc.assert(
      fc.property(bad, ({ doc, path }) => {
        writeFileSync(file, stringify(doc));
        const result = thrown(() => loadScenario(file));
        expect(result?.message).toContain(`${path}`);
        expect((result?.error as Error).name).toBe('ScenarioInvalidError');
      }),
      fuzzParams(),
    );
  });

  it('answers any text with a scenario or a ScenarioInvalidError, never another exception', () => {
    fc.assert(
      fc.property(fc.oneof(anyText(80), fc.jsonValue({ maxDepth: 3 }).map((v) => stringify(v))), (text) => {
        writeFileSync(file, text);
        const result = thrown(() => loadScenario(file));
        if (result !== null) expect((result.error as Error).name).toBe('ScenarioInvalidError');
      }),
      fuzzParams(),
    );
  });
});

describe('batch JSONL files', () => {
  const item = fc.record({ key: anyText(10), prompt: anyText(60), acceptance_criteria: fc.array(anyText(10), { maxLength: 2 }) }, { requiredKeys: ['prompt'] });

  it('reads every valid file back item by item, with the line of each', () => {
    fc.assert(
      fc.property(fc.array(fc.oneof(item, fc.constant(null)), { minLength: 1, maxLength: 8 }).filter((rows) => rows.some((r) => r !== null)), (rows) => {
        // null rows are blank lines, which are skipped.
        const text = rows.map((r) => (r === null ? '  ' : JSON.stringify(r))).join('\n');
        const parsed = parseBatchItemsFile(text, 'items.jsonl');
        expect(parsed.items).toEqual(rows.filter((r) => r !== null));
        expect(parsed.lines).toEqual(rows.flatMap((r, i) => (r === null ? [] : [i + 1])));
      }),
      fuzzParams(),
    );
  });

  it('refuses a bad line naming FILE:LINE and the field', () => {
    const badLine = fc.oneof(
      notString.map((p) => ({ line: JSON.stringify({ prompt: p }), field: 'prompt' })),
      fc.constant({ line: JSON.stringify({ key: 'k' }), field: 'prompt' }),
      notString.filter((v) => v !== undefined).map((k) => ({ line: JSON.stringify({ key: k, prompt: 'p' }), field: 'key' })),
      fc.constantFrom('{', '[1]', '"x"', 'null', '{"prompt": "a",}').map((line) => ({ line, field: '' })),
      unknownKey(['key', 'prompt', 'acceptance_criteria', '__proto__']).map((k) => ({ line: JSON.stringify({ prompt: 'p', [k]: 1 }), field: `unknown field(s) ${k}` })),
    );
    fc.assert(
      fc.property(fc.array(item, { maxLength: 4 }), badLine, fc.nat(), (rows, bad, n) => {
        const lines = rows.map((r) => JSON.stringify(r));
        const at = n % (lines.length + 1);
        lines.splice(at, 0, bad.line);
        const result = thrown(() => parseBatchItemsFile(lines.join('\n'), 'items.jsonl'));
        expect(result?.message).toContain(`items.jsonl:${at + 1}: `);
        if (bad.field !== '') expect(result?.message).toContain(`items.jsonl:${at + 1}: ${bad.field}`);
      }),
      fuzzParams(),
    );
  });
});
