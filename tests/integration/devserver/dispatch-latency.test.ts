import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger, NativeConnection, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { resolveTemporalCli, startDevServer } from '../../../src/devserver';
import { createTestEnv } from '../../support/temporal-env';
import type { ProbeActivities } from './probe-workflow';

/**
 * Each workflow task reaches its worker through a read of the history shard's transfer queue (the
 * activity rides along eagerly with the first task's completion). At the server's default of 20
 * reads a second, once a burst of 20 is spent, the 120 workflow tasks of 60 one-activity workflows
 * run one after another take at least 5 s (about 80 ms a workflow, measured); with the dev server's
 * dynamic config they take about 25 ms a workflow.
 */
const WORKFLOWS = 60;
const MAX_MS = 3_500;

const activities: ProbeActivities = {
  echo: (value) => Promise.resolve(value),
};

interface Server {
  readonly address: string;
  readonly namespace: string;
  stop(): Promise<void>;
}

const servers: Record<string, () => Promise<Server>> = {
  'startDevServer (npm start)': async () => {
    const cliPath = resolveTemporalCli().path;
    if (cliPath === null) throw new Error('No temporal CLI found: run `npm run temporal:install`');
    return startDevServer({ cliPath });
  },
  'createTestEnv (the test suites)': async () => {
    const env = await createTestEnv();
    return { address: env.address, namespace: env.namespace ?? 'default', stop: () => env.teardown() };
  },
};

describe('dev server dispatch latency', () => {
  let bundle: WorkflowBundleWithSourceMap;

  beforeAll(async () => {
    bundle = await bundleWorkflowCode({ workflowsPath: require.resolve('./probe-workflow'), logger: new DefaultLogger('WARN') });
  }, 60_000);

  it.each(Object.keys(servers))(`%s: ${WORKFLOWS} one-activity workflows in a row take less than ${MAX_MS} ms`, async (name) => {
    const server = await servers[name]!();
    const native = await NativeConnection.connect({ address: server.address });
    const connection = await Connection.connect({ address: server.address });
    try {
      const taskQueue = 'dispatch-latency';
      const worker = await Worker.create({ connection: native, namespace: server.namespace, taskQueue, workflowBundle: bundle, activities });
      const client = new Client({ connection, namespace: server.namespace });
      const elapsedMs = await worker.runUntil(async () => {
        // The first workflow warms the worker up (its V8 context, the sticky queue).
        await client.workflow.execute('probeWorkflow', { taskQueue, workflowId: 'warm-up', args: [-1] });
        const started = performance.now();
        for (let i = 0; i < WORKFLOWS; i++) {
          expect(await client.workflow.execute('probeWorkflow', { taskQueue, workflowId: `probe-${i}`, args: [i] })).toBe(i);
        }
        return performance.now() - started;
      });
      expect(elapsedMs).toBeLessThan(MAX_MS);
    } finally {
      await connection.close();
      await native.close();
      await server.stop();
    }
  });
});
