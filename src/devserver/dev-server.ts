import { CUSTOM_SEARCH_ATTRIBUTES } from '../contracts/search-attributes';
import { startCliDevServer } from './cli-dev-server';
import { pickFreePorts } from './free-port';
import { dialableHost } from './host-address';
import { resolveTemporalCli } from './resolve-temporal-cli';
import type { SearchAttributeDefinition } from './search-attribute-flags';
import { startSdkDevServer } from './sdk-dev-server';

/** Options of {@link startDevServer}; everything is optional. */
export interface DevServerOptions {
  /** `temporal` CLI binary; defaults to {@link resolveTemporalCli}. */
  readonly cliPath?: string;
  /** Interface to bind. Default `127.0.0.1`. */
  readonly ip?: string;
  /** gRPC frontend port. Default: a free port. */
  readonly port?: number;
  /** Web UI port. Default: a free port. */
  readonly uiPort?: number;
  /** Port of the server's Prometheus metrics (`/metrics`). Default: a free port. */
  readonly metricsPort?: number;
  /** Namespace created at start. Default `default`. */
  readonly namespace?: string;
  /** SQLite file to persist state across restarts. Default: in memory. */
  readonly dbFilename?: string;
  /** Custom search attributes to register. Default: the project's `CUSTOM_SEARCH_ATTRIBUTES`. */
  readonly searchAttributes?: readonly SearchAttributeDefinition[];
  /** Receives each line the server prints. Default: discarded. */
  readonly log?: (line: string) => void;
  /** How long to wait for the server to answer. Default 30 000 ms. */
  readonly startTimeoutMs?: number;
}

/** A running Temporal dev server. */
export interface DevServer {
  /** gRPC frontend address for clients and workers, e.g. `127.0.0.1:7233`. */
  readonly address: string;
  /** Web UI base URL, e.g. `http://127.0.0.1:8233`. */
  readonly uiUrl: string;
  /**
   * The server's Prometheus metrics, e.g. `http://127.0.0.1:9233/metrics`: among them its
   * persistence and service requests by operation, which the benchmarks read per variant.
   */
  readonly metricsUrl: string;
  readonly namespace: string;
  /** Process id of the server, or null when the Temporal SDK manages the process (downloaded CLI). */
  readonly pid: number | null;
  /** Stops the server and waits until it is gone. Safe to call more than once. */
  stop(): Promise<void>;
}

/** Everything {@link startDevServer} needs, with defaults applied and ports chosen. */
export interface DevServerSettings {
  readonly ip: string;
  readonly host: string;
  readonly port: number;
  readonly uiPort: number;
  readonly metricsPort: number;
  readonly namespace: string;
  readonly dbFilename: string | undefined;
  readonly searchAttributes: readonly SearchAttributeDefinition[];
  readonly log: (line: string) => void;
  readonly startTimeoutMs: number;
}

const DEFAULT_START_TIMEOUT_MS = 30_000;

/**
 * Starts a local Temporal dev server (SQLite, Web UI, our search attributes registered) and resolves
 * once its frontend, namespace, search attributes and UI all answer.
 *
 * Uses `opts.cliPath`, else the CLI found by {@link resolveTemporalCli}; when none is found locally the
 * Temporal SDK downloads one (needs internet). A port that is taken between its choice and the
 * server's bind costs another start on fresh ports (three starts in all); a requested port never.
 *
 * @throws Error with the server's last output lines when it exits early or is not ready in time.
 */
export async function startDevServer(opts: DevServerOptions = {}): Promise<DevServer> {
  const cliPath = opts.cliPath ?? resolveTemporalCli().path;
  const requested = new Set([opts.port, opts.uiPort, opts.metricsPort].filter((port) => port !== undefined));
  for (let attempt = 1; ; attempt += 1) {
    const settings = await settingsFrom(opts);
    try {
      return await (cliPath === null ? startSdkDevServer(settings) : startCliDevServer(cliPath, settings));
    } catch (error) {
      // A port was free when it was chosen (by us, or by the server for its internal services) and
      // taken before the server bound it. Fresh ports fix that; a port the caller asked for would
      // only be taken again.
      const taken = portTakenAtStart(error);
      if (taken === undefined || requested.has(taken) || attempt >= PORT_COLLISION_ATTEMPTS) throw error;
      settings.log(`port ${taken} was taken before the dev server bound it; starting again on fresh ports`);
    }
  }
}

/** Starts, in all, when a port turns out to be taken between its choice and its bind. */
const PORT_COLLISION_ATTEMPTS = 3;

/** The port the server could not bind, when that is why it did not start (its own output says so). */
function portTakenAtStart(error: unknown): number | undefined {
  const match = error instanceof Error ? /:(\d+): bind: address already in use/.exec(error.message) : null;
  return match === null ? undefined : Number(match[1]);
}

async function settingsFrom(opts: DevServerOptions): Promise<DevServerSettings> {
  const ip = opts.ip ?? '127.0.0.1';
  const host = dialableHost(ip);
  const [port, uiPort, metricsPort] = await choosePorts(host, [opts.port, opts.uiPort, opts.metricsPort]);
  return {
    ip,
    host,
    port,
    uiPort,
    metricsPort,
    namespace: opts.namespace ?? 'default',
    dbFilename: opts.dbFilename,
    searchAttributes: opts.searchAttributes ?? CUSTOM_SEARCH_ATTRIBUTES,
    log: opts.log ?? (() => undefined),
    startTimeoutMs: opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS,
  };
}

type Requested = readonly [port: number | undefined, uiPort: number | undefined, metricsPort: number | undefined];

/** The requested ports, each missing one a free port that none of the others is. */
async function choosePorts(host: string, requested: Requested): Promise<[number, number, number]> {
  const free = await pickFreePorts(requested.length, host);
  const taken = new Set(requested.filter((port) => port !== undefined));
  const choose = (port: number | undefined): number => {
    // A free port may coincide with an explicitly requested one.
    const pick = port ?? free.find((candidate) => !taken.has(candidate));
    if (pick === undefined) throw new Error('Could not find free ports');
    taken.add(pick);
    return pick;
  };
  return [choose(requested[0]), choose(requested[1]), choose(requested[2])];
}
