import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { workflowMetadataQuery } from '@temporalio/workflow';
import { chromium, type Browser, type Locator, type Page } from 'playwright-core';
import { SA_USER_ID } from '../../src/contracts';
import { startHarness, type Harness } from '../support/harness';
import { CHROMIUM_PATH_ENV, chromiumExecutable } from '../support/chromium-executable';
import { createTestEnvWithUi } from '../support/temporal-env';
import { waitFor } from '../support/use-temporal';

// The Web UI loads everything asynchronously after the page: each wait is generous but bounded.
const UI_WAIT_MS = 20_000;

/**
 * A lead run that delegates two tasks. The `bash` task waits for the gate file in its tool call, so
 * the run holds still with one task done and one running until the test opens the gate.
 */
function twoTaskScenario(gate: string): Record<string, unknown> {
  const usage = (input: number, output: number) => ({ input_tokens: input, output_tokens: output });
  return {
    lead: [
      {
        tool_calls: [
          { name: 'task', args: { subagent_type: 'general-purpose', description: 'Count the apples', prompt: 'Count the apples' } },
          { name: 'task', args: { subagent_type: 'bash', description: 'Weigh the pears', prompt: 'Weigh the pears' } },
        ],
        usage: usage(120, 40),
      },
      { content: 'Three apples and 2 kg of pears.', usage: usage(200, 10) },
    ],
    subagents: [
      { match: 'Count the apples', turns: [{ content: 'There are 3 apples.', usage: usage(50, 10) }] },
      {
        match: 'Weigh the pears',
        turns: [
          { tool_calls: [{ name: 'bash', args: { command: `until [ -e '${gate}' ]; do sleep 0.1; done; echo 2 kg` } }], usage: usage(30, 5) },
          { content: 'The pears weigh 2 kg.', usage: usage(40, 6) },
        ],
      },
    ],
  };
}

/** Waits until `scope` shows `text`; on timeout the error quotes what it shows instead. */
async function expectText(scope: Locator, text: string): Promise<void> {
  try {
    await scope.getByText(text).first().waitFor({ state: 'visible', timeout: UI_WAIT_MS });
  } catch (error) {
    const shown = await scope.innerText({ timeout: 1_000 }).catch(() => '(nothing)');
    throw new Error(`Temporal Web never showed "${text}"; it showed:\n${shown.slice(0, 4_000)}`, { cause: error });
  }
}

/** The run's User Metadata tab renders its summary and current details (markdown) in frames of their own. */
function userMetadataFrame(page: Page, which: 'summary' | 'current-details'): Locator {
  return page.frameLocator(`#user-metadata-${which}`).locator('body');
}

const executable = chromiumExecutable();
if (executable === null) {
  console.warn(
    '\n*** Temporal Web e2e test SKIPPED: no Chromium found. ***\n' +
      `*** Run scripts/install-browser.sh (installs Debian's chromium) or set ${CHROMIUM_PATH_ENV}. ***\n`,
  );
}
const describeWithBrowser = executable === null ? describe.skip : describe;

describeWithBrowser('Temporal Web (dev server UI in a real browser)', () => {
  let dir: string;
  let gate: string;
  let uiUrl: string;
  let env: TestWorkflowEnvironment;
  let harness: Harness;
  let browser: Browser;
  let page: Page;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'deerflow-web-'));
    gate = join(dir, 'gate');
    ({ env, uiUrl } = await createTestEnvWithUi());
    // A running task's tokens reach the current details with its first progress signal, a second in.
    harness = await startHarness(env, twoTaskScenario(gate), { subagent_runtime: { progress_signal_seconds: 1 } }, { dir });
    browser = await chromium.launch({ executablePath: executable ?? undefined });
    page = await browser.newPage();
  }, 90_000);

  afterAll(async () => {
    await browser?.close();
    await harness?.close();
    await env?.teardown();
    rmSync(dir, { recursive: true, force: true });
  });

  const runPage = (workflowId: string, runId: string, tab: 'history' | 'user-metadata'): string =>
    `${uiUrl}/namespaces/${env.namespace ?? 'default'}/workflows/${encodeURIComponent(workflowId)}/${runId}/${tab}`;
  const listPage = (query: string): string => `${uiUrl}/namespaces/${env.namespace ?? 'default'}/workflows?query=${encodeURIComponent(query)}`;

  test("shows the run's summary, each task's activity summary, live and final current details, and finds the run by DeerflowUserId", async () => {
    const alice = await harness.client.startRun({ message: 'How much fruit?', threadId: 'web-ui-1', runId: 'fruit', userId: 'alice' });
    const runId = alice.handle.firstExecutionRunId;

    // Live: one task done, one still running, and the tokens both (and the lead) reported so far.
    const live = 'running · lead turn 1 · tasks: 1 completed, 1 running · tokens: 255 (200 in, 55 out)';
    // Asked of the worker first: the page shows what the run reported when it loads, not later changes.
    await waitFor(async () => (await alice.handle.query(workflowMetadataQuery)).currentDetails?.replaceAll('**', '') === live, UI_WAIT_MS);
    await page.goto(runPage(alice.workflowId, runId, 'user-metadata'));
    await expectText(userMetadataFrame(page, 'summary'), 'default for alice: How much fruit?');
    await expectText(userMetadataFrame(page, 'current-details'), live);

    writeFileSync(gate, '');
    await alice.handle.result();
    await page.goto(runPage(alice.workflowId, runId, 'user-metadata'));
    await expectText(userMetadataFrame(page, 'current-details'), 'completed · lead turn 2 · tasks: 2 completed · tokens: 511 (440 in, 71 out)');

    await page.goto(runPage(alice.workflowId, runId, 'history'));
    const history = page.locator('main');
    await expectText(history, 'general-purpose: Count the apples');
    await expectText(history, 'bash: Weigh the pears');
    await expectText(history, 'default for alice: How much fruit?');

    // Another user's run, so that each user's list has something to leave out.
    const bob = await harness.client.startRun({ message: 'And the plums?', threadId: 'web-ui-2', runId: 'plums', userId: 'bob' });
    await bob.handle.result();
    await waitFor(async () => (await env.client.workflow.count(`${SA_USER_ID.name} IN ('alice', 'bob') AND ExecutionStatus = 'Completed'`)).count === 2, UI_WAIT_MS);
    for (const [user, listed, other] of [
      ['alice', alice.workflowId, bob.workflowId],
      ['bob', bob.workflowId, alice.workflowId],
    ] as const) {
      await page.goto(listPage(`${SA_USER_ID.name}="${user}"`));
      const list = page.locator('main');
      await expectText(list, listed);
      expect(await list.getByText(other).count()).toBe(0);
    }
  });
});
