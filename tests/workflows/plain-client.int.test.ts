import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { batchStartOptions, buildBatch, buildLeadRunInput, leadRunStartOptions } from '../../src/client';
import { INVALID_INPUT_TYPE, SA_AGENT, SA_BATCH_ID, SA_SUBAGENTS, SA_THREAD_ID, SA_USER_ID, WORKFLOW_TASK_QUEUE, WORKFLOW_TYPES } from '../../src/contracts';
import { resolveCatalog } from '../../src/registry';
import { SCRIPTED_MODEL } from '../support/harness';
import { useTemporal, waitFor } from '../support/use-temporal';

const temporal = useTemporal();

const oneAnswer = { lead: [{ content: 'hello' }], subagents: [{ match: '*', turns: [{ content: 'done' }] }] };

/** Workflow ids that match a visibility query (visibility lags behind the workflow: poll). */
async function findIds(query: string, expected: number): Promise<string[]> {
  let ids: string[] = [];
  await waitFor(async () => {
    ids = [];
    for await (const execution of temporal.env().client.workflow.list({ query })) ids.push(execution.workflowId);
    return ids.length >= expected;
  });
  return ids;
}

test('a lead run started by a plain Temporal client (no search attributes) is found by thread and user', async () => {
  const harness = await temporal.start(oneAnswer);
  const input = buildLeadRunInput(harness.loaded.config, { message: 'hi', threadId: 'plain-thread', runId: 'run-1', userId: 'plain-user' });
  // As `temporal workflow start --type leadRunWorkflow --task-queue deerflow --input-file` would: nothing but the input.
  const { workflowId } = leadRunStartOptions(input);
  const handle = await temporal.env().client.workflow.start(WORKFLOW_TYPES.leadRun, { taskQueue: WORKFLOW_TASK_QUEUE, workflowId, args: [input] });
  expect((await handle.result()).status).toBe('completed');

  const ids = await findIds(`${SA_THREAD_ID.name} = 'plain-thread' AND ${SA_USER_ID.name} = 'plain-user'`, 1);
  expect(ids).toEqual([workflowId]);
  const attributes = (await handle.describe()).typedSearchAttributes;
  expect(attributes.get(SA_AGENT)).toBe('default');
});

test('runs on one worker share the built input schema: a bad input after a good one still fails, naming its field', async () => {
  const harness = await temporal.start(oneAnswer);
  const start = (runId: string, input: unknown) =>
    temporal.env().client.workflow.start(WORKFLOW_TYPES.leadRun, { taskQueue: WORKFLOW_TASK_QUEUE, workflowId: `shared-schema-${runId}`, args: [input as never] });
  const good = (runId: string) => buildLeadRunInput(harness.loaded.config, { message: 'hi', threadId: 'shared-schema', runId, userId: 'u' });
  expect((await (await start('run-1', good('run-1'))).result()).status).toBe('completed');
  const bad = good('run-2');
  const failure = await (await start('run-2', { ...bad, limits: { ...bad.limits, maxConcurrent: 0 } })).result().catch((err: unknown) => err);
  expect(failure).toBeInstanceOf(WorkflowFailedError);
  const cause = (failure as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  expect((cause as ApplicationFailure).type).toBe(INVALID_INPUT_TYPE);
  expect((cause as ApplicationFailure).message).toMatch(/^Invalid lead run input: limits\.maxConcurrent/);
  expect((await (await start('run-3', good('run-3'))).result()).status).toBe('completed');
});

test('leadRunStartOptions starts a run a plain client can find at once, with the same attributes the run would set', async () => {
  const harness = await temporal.start(oneAnswer);
  const input = buildLeadRunInput(harness.loaded.config, { message: 'hi', threadId: 'typed-thread', runId: 'run-1', userId: 'typed-user' });
  const handle = await temporal.env().client.workflow.start(WORKFLOW_TYPES.leadRun, leadRunStartOptions(input));
  expect((await handle.result()).status).toBe('completed');
  const attributes = (await handle.describe()).typedSearchAttributes;
  expect([attributes.get(SA_THREAD_ID), attributes.get(SA_USER_ID), attributes.get(SA_AGENT)]).toEqual(['typed-thread', 'typed-user', 'default']);
});

test('a batch started by a plain Temporal client (rows written first) is found by batch id and owner', async () => {
  const harness = await temporal.start(oneAnswer, { subagent_batches: { enabled: true, poll_interval_seconds: 0.1 } });
  const config = harness.loaded.config;
  const built = buildBatch(config, resolveCatalog(config, null), {
    batchId: 'plain-batch',
    ownerId: 'plain-owner',
    title: 'plain',
    subagentType: 'general-purpose',
    items: [{ prompt: 'one' }, { prompt: 'two' }],
    parentModel: SCRIPTED_MODEL,
  });
  await harness.stores.batches.createBatch(built.create, { maxItems: built.maxItems });
  const { workflowId } = batchStartOptions(built.workflow);
  const handle = await temporal.env().client.workflow.start(WORKFLOW_TYPES.batch, { taskQueue: WORKFLOW_TASK_QUEUE, workflowId, args: [built.workflow] });
  expect((await handle.result()).counts.completed).toBe(2);

  const query = `WorkflowType = '${WORKFLOW_TYPES.batch}' AND ${SA_BATCH_ID.name} = 'plain-batch' AND ${SA_USER_ID.name} = 'plain-owner'`;
  expect(await findIds(query, 1)).toEqual([workflowId]);
  expect((await handle.describe()).typedSearchAttributes.get(SA_SUBAGENTS)).toEqual(['general-purpose']);
});
