import type { DevServer, DevServerSettings } from './dev-server';
import { dynamicConfigFlags } from './dynamic-config-flags';
import { hostPort } from './host-address';
import { TEMPORAL_CLI_PATH_ENV } from './resolve-temporal-cli';
import { waitUntilReady } from './wait-until-ready';

/**
 * Starts the dev server through `@temporalio/testing`, which downloads and caches the CLI itself.
 * Only used when no CLI binary is available locally; it needs internet access on first use.
 */
export async function startSdkDevServer(settings: DevServerSettings): Promise<DevServer> {
  // Loaded lazily: it pulls in the native core bridge, which the spawned-binary path never needs.
  const { TestWorkflowEnvironment } = await import('@temporalio/testing');
  settings.log('no local temporal CLI found; letting the Temporal SDK download one');
  const env = await TestWorkflowEnvironment.createLocal({
    server: {
      ip: settings.ip,
      port: settings.port,
      ui: true,
      uiPort: settings.uiPort,
      namespace: settings.namespace,
      dbFilename: settings.dbFilename,
      searchAttributes: [...settings.searchAttributes],
      log: { format: 'pretty', level: 'warn' },
      extraArgs: ['--metrics-port', String(settings.metricsPort), ...dynamicConfigFlags()],
    },
  }).catch((error: unknown) => {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `No local temporal CLI was found and the Temporal SDK could not start a downloaded one: ${reason}\n` +
        `Run \`npm run temporal:install\`, put \`temporal\` on PATH, or set ${TEMPORAL_CLI_PATH_ENV}.`,
      { cause: error },
    );
  });
  let stopped: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopped ??= env.teardown());
  const address = hostPort(settings.host, settings.port);
  const uiUrl = `http://${hostPort(settings.host, settings.uiPort)}`;
  const metricsUrl = `http://${hostPort(settings.host, settings.metricsPort)}/metrics`;
  try {
    const searchAttributeNames = settings.searchAttributes.map((a) => a.name);
    await waitUntilReady({ address, namespace: settings.namespace, searchAttributeNames, uiUrl }, { timeoutMs: settings.startTimeoutMs });
  } catch (error) {
    await stop();
    throw error;
  }
  return { address, uiUrl, metricsUrl, namespace: settings.namespace, pid: null, stop };
}
