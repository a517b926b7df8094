import { TestWorkflowEnvironment } from '@temporalio/testing';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../src/contracts/search-attributes';
import { dynamicConfigFlags, resolveTemporalCli, TEMPORAL_CLI_PATH_ENV } from '../../src/devserver';
import { pickFreePorts } from '../../src/devserver/free-port';

/**
 * A fresh local Temporal dev server (in memory, our custom search attributes and dynamic config) for tests,
 * started from the locally resolved `temporal` CLI, without the Web UI. Call `teardown()` on it when done.
 *
 * @throws Error explaining how to install the CLI when none is found: tests never download it.
 */
export async function createTestEnv(): Promise<TestWorkflowEnvironment> {
  return (await startTestServer({ ui: false })).env;
}

/** {@link createTestEnv} with the Web UI served on a port of its own choosing, for tests that look at Temporal Web. */
export async function createTestEnvWithUi(): Promise<{ env: TestWorkflowEnvironment; uiUrl: string }> {
  const { env, uiPort } = await startTestServer({ ui: true });
  return { env, uiUrl: `http://127.0.0.1:${uiPort}` };
}

/** Starts, in all, of a server that never listened. */
const TEST_SERVER_STARTS = 3;

/** The SDK's words for a server that never answered: one that exited at once is reported the same way. */
const NEVER_LISTENED = /did not start within/;

async function startTestServer({ ui }: { ui: boolean }): Promise<{ env: TestWorkflowEnvironment; uiPort?: number }> {
  const resolved = resolveTemporalCli();
  if (resolved.path === null) {
    throw new Error(
      `No temporal CLI found for the test dev server. Run \`npm run temporal:install\`, ` +
        `put \`temporal\` on PATH, or set ${TEMPORAL_CLI_PATH_ENV} to a temporal CLI binary.`,
    );
  }
  for (let start = 1; ; start += 1) {
    // Chosen afresh each start: a port free a moment ago may be taken before the server binds it, and the
    // SDK chooses the frontend's port the same way. Such a server exits at once, its reason on stderr.
    const uiPort = ui ? (await pickFreePorts(1))[0] : undefined;
    try {
      const env = await TestWorkflowEnvironment.createLocal({
        server: {
          executable: { type: 'existing-path', path: resolved.path },
          searchAttributes: [...CUSTOM_SEARCH_ATTRIBUTES],
          ip: '127.0.0.1',
          // The embedded server's settings: tests wait on the same dispatch latency users get.
          extraArgs: dynamicConfigFlags(),
          ...(uiPort === undefined ? {} : { ui: true, uiPort }),
        },
      });
      return { env, uiPort };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      if (!NEVER_LISTENED.test(reason) || start >= TEST_SERVER_STARTS) throw error;
      console.warn(`test dev server did not start (start ${start} of ${TEST_SERVER_STARTS}); starting again on fresh ports: ${reason}`);
    }
  }
}
