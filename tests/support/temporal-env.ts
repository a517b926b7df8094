import { TestWorkflowEnvironment } from '@temporalio/testing';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../src/contracts/search-attributes';
import { dynamicConfigFlags, resolveTemporalCli, TEMPORAL_CLI_PATH_ENV } from '../../src/devserver';

/** Options of {@link createTestEnv}. */
export interface TestEnvOptions {
  /** Serve the Web UI on this port (tests that look at Temporal Web); without it the server is headless. */
  readonly uiPort?: number;
}

/**
 * A fresh local Temporal dev server (in memory, our custom search attributes and dynamic config) for tests,
 * started from the locally resolved `temporal` CLI. Call `teardown()` on it when done.
 *
 * @throws Error explaining how to install the CLI when none is found: tests never download it.
 */
export async function createTestEnv(options: TestEnvOptions = {}): Promise<TestWorkflowEnvironment> {
  const resolved = resolveTemporalCli();
  if (resolved.path === null) {
    throw new Error(
      `No temporal CLI found for the test dev server. Run \`npm run temporal:install\`, ` +
        `put \`temporal\` on PATH, or set ${TEMPORAL_CLI_PATH_ENV} to a temporal CLI binary.`,
    );
  }
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: resolved.path },
      searchAttributes: [...CUSTOM_SEARCH_ATTRIBUTES],
      ip: '127.0.0.1',
      // The embedded server's settings: tests wait on the same dispatch latency users get.
      extraArgs: dynamicConfigFlags(),
      ...(options.uiPort === undefined ? {} : { ui: true, uiPort: options.uiPort }),
    },
  });
}
