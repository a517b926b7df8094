/**
 * Records the replay fixtures in tests/replay/histories/ by running scenarios on a real dev server.
 * Run it after a deliberate workflow change (`npm run replay:record`), keep the old histories that
 * production may still hold, and guard the change with `patched()`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { parse } from 'yaml';
import { findProjectRoot } from '../src/devserver';
import { startHarness } from '../tests/support/harness';
import { createTestEnv } from '../tests/support/temporal-env';
import { HISTORIES_DIR, MANIFEST_PATH, type ReplayFixture } from '../tests/replay/fixtures';
import { installWorkerLogging } from '../src/worker/install-logging';

const DEMO_FIXTURE = { file: 'demo-lead-run.json', threadId: 'replay-demo', runId: 'run-1' } as const;

async function main(): Promise<void> {
  installWorkerLogging('WARN');
  const scenario = parse(readFileSync(join(findProjectRoot(), 'scenarios', 'demo', 'scenario.yaml'), 'utf8')) as Record<string, unknown>;
  const env = await createTestEnv();
  try {
    const harness = await startHarness(env, scenario);
    try {
      const { state, workflowId } = await harness.run({ message: 'demo', threadId: DEMO_FIXTURE.threadId, runId: DEMO_FIXTURE.runId });
      if (state.status !== 'completed') throw new Error(`demo run ended ${state.status}: ${state.error ?? ''}`);
      const history = await env.client.workflow.getHandle(workflowId).fetchHistory();
      writeFileSync(join(HISTORIES_DIR, DEMO_FIXTURE.file), `${JSON.stringify(JSON.parse(historyToJSON(history)), null, 1)}\n`);
      const manifest: ReplayFixture[] = [
        {
          file: DEMO_FIXTURE.file,
          workflowId,
          description: 'The npm start demo: one lead turn with two parallel task calls (general-purpose, bash), then a final answer.',
        },
      ];
      writeFileSync(MANIFEST_PATH, `${JSON.stringify(manifest, null, 2)}\n`);
      process.stdout.write(`recorded ${DEMO_FIXTURE.file} (${workflowId})\n`);
    } finally {
      await harness.close();
    }
  } finally {
    await env.teardown();
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
