import { WorkflowNotFoundError } from '@temporalio/client';
import { batchWorkflowId } from '../../../src/workflows/batch-messages';
import { leadRunWorkflowId } from '../../../src/workflows/lead-run-messages';
import { isThreadOwnerError } from '../../../src/store';
import { useTemporal } from '../../support/use-temporal';

const temporal = useTemporal();
const answers = { lead: [{ content: 'Done.', repeat: 'forever' }] };

/** Whether a workflow with this id was ever started. */
async function exists(workflowId: string): Promise<boolean> {
  try {
    await temporal.env().client.workflow.getHandle(workflowId).describe();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

test('startRun and startBatch claim their thread for their user and refuse another user\'s before starting anything', async () => {
  const harness = await temporal.start(answers, { subagent_batches: { enabled: true } });
  const { client, stores } = harness;

  const run = await client.startRun({ message: 'hi', threadId: 'alice-thread', userId: 'alice' });
  await run.handle.result();
  expect(await stores.threads.get('alice-thread')).toMatchObject({ ownerId: 'alice', kind: 'run' });
  expect(await client.threadOwner('alice-thread')).toEqual(await stores.threads.get('alice-thread'));
  // The owner continues; the claim stays the first one.
  const again = await client.startRun({ message: 'again', threadId: 'alice-thread', userId: 'alice' });
  await again.handle.result();

  const refused = await client.startRun({ message: 'peek', threadId: 'alice-thread', runId: 'bob-run', userId: 'bob' }).catch((err: unknown) => err);
  expect(isThreadOwnerError(refused, 'owned_by_another')).toBe(true);
  expect(refused).toMatchObject({ threadId: 'alice-thread', ownerId: 'alice', message: 'thread "alice-thread" belongs to user "alice", not "bob"' });
  expect(await exists(leadRunWorkflowId('alice-thread', 'bob-run'))).toBe(false);

  const batch = { title: 't', subagentType: 'general-purpose', items: [{ prompt: 'p' }] };
  const batchRefused = await client.startBatch({ ...batch, batchId: 'alice-thread', ownerId: 'bob' }).catch((err: unknown) => err);
  expect(batchRefused).toMatchObject({ name: 'ThreadOwnerError', code: 'owned_by_another', threadId: 'alice-thread' });
  expect(await stores.batches.getBatch('alice-thread', 'bob')).toBeNull();
  expect(await exists(batchWorkflowId('alice-thread'))).toBe(false);

  const started = await client.startBatch({ ...batch, batchId: 'carol-batch', ownerId: 'carol' });
  expect(await stores.threads.get('carol-batch')).toMatchObject({ ownerId: 'carol', kind: 'batch' });
  await started.handle.result();
  const runInBatchThread = await client.startRun({ message: 'x', threadId: 'carol-batch', userId: 'dave' }).catch((err: unknown) => err);
  expect(runInBatchThread).toMatchObject({ code: 'owned_by_another', ownerId: 'carol' });
});
