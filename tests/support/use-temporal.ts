import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { startHarness, type Harness, type HarnessOptions } from './harness';
import { createTestEnv } from './temporal-env';

/** What {@link useTemporal} gives a test file. */
export interface TemporalFixture {
  /** The file's dev server environment (available inside tests). */
  env(): TestWorkflowEnvironment;
  /** Starts a harness that is closed after the current test. */
  start(scenario: Record<string, unknown>, config?: Record<string, unknown>, options?: HarnessOptions): Promise<Harness>;
}

/**
 * One real dev server per test file, and harnesses closed after each test: the lifecycle every
 * workflow test file needs, registered as jest hooks.
 */
export function useTemporal(): TemporalFixture {
  let env: TestWorkflowEnvironment | undefined;
  const open: Harness[] = [];
  beforeAll(async () => {
    env = await createTestEnv();
  }, 60_000);
  afterEach(async () => {
    for (const harness of open.splice(0)) await harness.close();
  });
  afterAll(async () => {
    await env?.teardown();
  });
  const current = (): TestWorkflowEnvironment => {
    if (env === undefined) throw new Error('the Temporal test environment is not started yet');
    return env;
  };
  return {
    env: current,
    async start(scenario, config, options) {
      const harness = await startHarness(current(), scenario, config, options);
      open.push(harness);
      return harness;
    },
  };
}

/** Polls `check` until it holds. @throws when it does not within `timeoutMs`. */
export async function waitFor(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}
