import { Command, type Option } from 'commander';
import type { LoadedConfig } from '../config';
import { assertBindable, isGatewaySetupError, resolveGatewayAuth, resolveOriginPolicy, startGateway, type GatewayAuth } from '../gateway';
import { decideHostBashForServe } from './host-bash-policy';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { startRuntime } from './runtime';
import { stopSignals } from './stop-signals';

/** Options of {@link runServe}. */
export interface ServeOptions {
  /** Overrides `gateway.port`. */
  readonly port?: number;
  /** Resolves when the server should stop. @default SIGINT or SIGTERM */
  readonly until?: Promise<void>;
  readonly log?: (line: string) => void;
  /** Startup warnings (host bash on). @default a line on stderr */
  readonly warn?: (line: string) => void;
}

function parsePort(raw: string): number {
  const value = Number(raw.trim());
  if (!/^\d+$/.test(raw.trim()) || value > 65_535) throw new CliExit(`--port must be an integer 0..65535, got '${raw}'`, EXIT_USAGE);
  return value;
}

/** Config problems (token variables, unsafe host) are usage errors, reported before anything starts. */
function checkedAuth(loaded: LoadedConfig, host: string): GatewayAuth {
  try {
    const auth = resolveGatewayAuth(loaded.config.gateway.tokens, process.env);
    assertBindable(host, auth);
    // A bad `gateway.allowed_origins` entry is a usage error too, before anything starts.
    resolveOriginPolicy(auth.required, loaded.config.gateway.allowed_origins);
    return auth;
  } catch (err) {
    if (isGatewaySetupError(err)) throw new CliExit(err.message, EXIT_USAGE);
    throw err;
  }
}

/** Host bash in a multi-user gateway is a usage error unless explicitly accepted; see {@link decideHostBashForServe}. */
function checkHostBash(loaded: LoadedConfig, warn: (line: string) => void): void {
  const decision = decideHostBashForServe(loaded.config);
  if (decision.kind === 'refuse') throw new CliExit(decision.message, EXIT_USAGE);
  if (decision.kind === 'warn') warn(decision.message);
}

/**
 * `deerflow serve`: the runtime (embedded dev server + workers without TEMPORAL_ADDRESS, else a
 * client of that cluster) and the HTTP gateway, until SIGINT/SIGTERM (or `options.until`).
 * @throws CliExit for config problems (unset token variables, a non-loopback host without tokens,
 *   host bash with tokens unless `sandbox.host_bash_multi_user`).
 */
export async function runServe(loaded: LoadedConfig, options: ServeOptions = {}): Promise<void> {
  const log = options.log ?? ((line: string) => process.stdout.write(`${line}\n`));
  const { host } = loaded.config.gateway;
  const port = options.port ?? loaded.config.gateway.port;
  const auth = checkedAuth(loaded, host);
  checkHostBash(loaded, options.warn ?? ((line: string) => process.stderr.write(`${line}\n`)));
  // Installed before the slow start so a Ctrl-C during it still shuts down cleanly afterwards.
  const stop = options.until === undefined ? stopSignals(log) : { received: options.until, dispose: () => {} };
  try {
    await serveUntil(loaded, { host, port, auth, log, until: stop.received });
  } finally {
    stop.dispose();
  }
}

async function serveUntil(
  loaded: LoadedConfig,
  options: { host: string; port: number; auth: GatewayAuth; log: (line: string) => void; until: Promise<void> },
): Promise<void> {
  const { host, port, auth, log, until } = options;
  const runtime = await startRuntime({ loaded, withWorkers: false, log });
  try {
    const gateway = await startGateway({
      host,
      port,
      auth,
      temporal: runtime.temporal,
      deerflow: runtime.deerflow,
      events: runtime.stores.events,
      allowedOrigins: loaded.config.gateway.allowed_origins,
      streamPollMaxMs: loaded.config.gateway.stream_poll_max_ms,
      maxStreamsPerCaller: loaded.config.gateway.max_streams_per_caller,
    });
    const who = auth.required ? `${loaded.config.gateway.tokens.length} token(s)` : 'no authentication, loopback only';
    log(`deerflow gateway at ${gateway.url} (${who}); Ctrl-C to stop`);
    await until;
    log('stopping ...');
    await gateway.close();
  } finally {
    await runtime.stop();
  }
  log('stopped');
}

/** The `serve` subcommand. */
export function serveCommand(config: Option): Command {
  return new Command('serve')
    .description('serve the HTTP API + SSE (runs, events) on gateway.host:gateway.port')
    .addOption(config)
    .option('--port <n>', 'port (default: gateway.port, 8787)')
    .action(async (opts: { config?: string; port?: string }) => {
      const port = opts.port === undefined ? undefined : parsePort(opts.port);
      await runServe(loadCliConfig(opts.config), { port });
    });
}
