import { MockActivityEnvironment } from '@temporalio/testing';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import type { ActivityDeps } from '../../../src/activities/activity-deps';
import { createSubagentExecutor, type SubagentExecutor } from '../../../src/activities/run-subagent';
import { subagentCheckpointThread } from '../../../src/activities/subagent-checkpoint';
import { loadConfig } from '../../../src/config';
import { executionScopeOf, type BatchItemExecution, type SubagentExecutionResult } from '../../../src/contracts';
import { createChatModel, findModelConfig } from '../../../src/models';
import { openStores, type Stores } from '../../../src/store';
import { ThreadWorkspace } from '../../../src/tools';
import { batchInput, itemExecution, itemsFor, MAX_ITEMS } from '../../store/conformance/batch-fixtures';

// Every item writes the same file twice with the same arguments: two identical call sets, one
// below the loop guard's hard limit of 3. A guard that remembered an earlier item's calls on the
// same thread would stop the next item at its first call (`loop_capped`).
const WRITE = { tool_calls: [{ name: 'write_file', args: { path: 'mark.txt', content: 'mark' } }], usage: { input_tokens: 10, output_tokens: 2 } };
const SCENARIO = { subagents: [{ match: '*', turns: [WRITE, WRITE, { content: 'done', usage: { input_tokens: 10, output_tokens: 2 } }] }] };

describe('subagent executions of one worker: pooled agents, their writes', () => {
  let dir: string;
  let stores: Stores;
  let execute: SubagentExecutor;
  /** Subagent chat models created so far: one per execution, and one more per agent built. */
  let subagentModels: number;

  // The scripted model is the run's model; three model calls fit well within the turns.
  const item = (key: string): BatchItemExecution => itemExecution(key, { parentModel: 'scripted', maxTurns: 10 });
  const run = (key: string): Promise<SubagentExecutionResult> => new MockActivityEnvironment({ activityType: 'runBatchItem' }).run(execute, item(key));
  const checkpointThreadOf = (key: string): string => subagentCheckpointThread(executionScopeOf(item(key)), 1);
  const checkpointOf = (key: string) => stores.checkpoints.getTuple({ configurable: { thread_id: checkpointThreadOf(key), checkpoint_ns: '' } });
  /** The checkpoint thread of every checkpoint written to the store, in order. */
  let stored: string[];
  const markOf = (key: string): string => readFileSync(join(new ThreadWorkspace(join(dir, 'data'), 't1', { batchId: 'b1', itemKey: key }).hostWorkspace, 'mark.txt'), 'utf8');

  beforeEach(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deerflow-pooled-agent-'));
    writeFileSync(join(dir, 'scenario.yaml'), stringify(SCENARIO));
    writeFileSync(
      join(dir, 'config.yaml'),
      stringify({
        models: [{ name: 'scripted', provider: 'scripted', script: './scenario.yaml' }],
        loop_detection: { warn_threshold: 2, hard_limit: 3 },
        subagent_runtime: { max_running: 2 },
        store: { data_dir: join(dir, 'data') },
      }),
    );
    const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
    stores = await openStores({ dataDir: loaded.config.store.data_dir, postgresUrl: null });
    await stores.batches.createBatch(batchInput({ items: itemsFor(['a', 'b', 'c', 'd', 'e']) }), { maxItems: MAX_ITEMS });
    subagentModels = 0;
    stored = [];
    const put = stores.checkpoints.put.bind(stores.checkpoints);
    jest.spyOn(stores.checkpoints, 'put').mockImplementation((config, ...rest) => {
      stored.push(String(config.configurable?.['thread_id']));
      return put(config, ...rest);
    });
    const deps: ActivityDeps = {
      config: loaded.config,
      stores,
      createModel: (name, role, handlers = []) => {
        if (role.kind === 'subagent') subagentModels += 1;
        return createChatModel(findModelConfig(loaded.config.models, name), { configDir: loaded.dir, role, callbacks: [...handlers] });
      },
      subagentBacklog: async () => 0,
    };
    execute = createSubagentExecutor(deps);
  });
  afterEach(async () => {
    await stores.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('executions one after another share one agent, each with its own tools, model and guards', async () => {
    const a = await run('a');
    expect(a).toMatchObject({ status: 'completed', stopReason: null, resultBrief: 'done', steps: 5 });
    expect(subagentModels).toBe(2);
    const b = await run('b');
    // Not stopped by a's calls, its usage its own, its file in its own workspace.
    expect(b).toMatchObject({ status: 'completed', stopReason: null, resultBrief: 'done', steps: 5 });
    expect(b.usage).toEqual({ input_tokens: 30, output_tokens: 6, total_tokens: 36 });
    expect(subagentModels).toBe(3);
    expect([markOf('a'), markOf('b')]).toEqual(['mark', 'mark']);
    // Each stored its checkpoints (before its second and third model calls) through its own
    // checkpointer, which dropped them when it completed.
    expect([...new Set(stored)]).toEqual(['a', 'b'].map(checkpointThreadOf));
    for (const key of ['a', 'b']) await expect(checkpointOf(key)).resolves.toBeUndefined();
  });

  test('executions running at once get an agent each; both are kept for the next ones', async () => {
    const [c, d] = await Promise.all([run('c'), run('d')]);
    expect([c.status, d.status, c.stopReason, d.stopReason]).toEqual(['completed', 'completed', null, null]);
    expect(subagentModels).toBe(4);
    expect([markOf('c'), markOf('d')]).toEqual(['mark', 'mark']);
    await expect(run('e')).resolves.toMatchObject({ status: 'completed', stopReason: null });
    expect(subagentModels).toBe(5);
  });

  test('a completed execution asks for its last steps and its result at once, so the store can commit them together', async () => {
    const writes: string[] = [];
    const putBatch = stores.events.putBatch.bind(stores.events);
    jest.spyOn(stores.events, 'putBatch').mockImplementation(async (rows) => {
      const steps = rows.some((r) => r.event === 'subagent.step');
      if (steps) writes.push('steps asked');
      const stored = await putBatch(rows);
      if (steps) writes.push('steps stored');
      return stored;
    });
    const putResult = stores.results.putResult.bind(stores.results);
    jest.spyOn(stores.results, 'putResult').mockImplementation(async (entry) => {
      writes.push('result asked');
      const ref = await putResult(entry);
      writes.push('result stored');
      return ref;
    });
    await expect(run('a')).resolves.toMatchObject({ status: 'completed', steps: 5 });
    expect(writes.slice(0, 2)).toEqual(['steps asked', 'result asked']);
    expect(writes.slice(2).sort()).toEqual(['result stored', 'steps stored']);
  });
});
