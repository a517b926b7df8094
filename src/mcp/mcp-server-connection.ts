import { loadMcpTools } from '@langchain/mcp-adapters';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { McpServerConfig } from '../config/mcp-servers-schema';
import { McpError } from './errors';
import { toMcpToolEntries, type McpToolEntry } from './mcp-tool';
import { createMcpTransport, type McpTransportContext } from './mcp-transport';

/** Where one server stands in this worker process. */
export const McpServerState = {
  Connecting: 'connecting',
  Connected: 'connected',
  Failed: 'failed',
  Closed: 'closed',
} as const;
export type McpServerState = (typeof McpServerState)[keyof typeof McpServerState];

/** A server's status, for `deerflow tools list` and for the error a call to it gets. */
export interface McpServerStatus {
  readonly server: string;
  readonly state: McpServerState;
  /** Why the last attempt failed or the connection dropped (never a resolved secret); null when connected. */
  readonly reason: string | null;
  /** Connection attempts so far (the first included). */
  readonly attempts: number;
}

/** Delays between reconnection attempts: doubling from `initialMs` up to `maxMs`. */
export interface McpBackoff {
  readonly initialMs: number;
  readonly maxMs: number;
}

/** Inputs of {@link McpServerConnection}. */
export interface McpServerConnectionOptions extends McpTransportContext {
  readonly backoff: McpBackoff;
  readonly warn: (message: string) => void;
}

const CLIENT_INFO = { name: 'deerflow', version: '0.1.0' };
const STDERR_TAIL_CHARS = 500;
const PING_TIMEOUT_MS = 5000;

/**
 * One worker's connection to one MCP server. `start()` makes the first attempt; a failed attempt, or
 * a connection that drops later (a crashed server), is retried in the background with backoff until
 * `close()`. Tools are reloaded on every (re)connection, so they always call the live client.
 */
export class McpServerConnection {
  private state: McpServerState = McpServerState.Connecting;
  private reason: string | null = null;
  private attempts = 0;
  private failures = 0;
  private client: Client | null = null;
  private entries: readonly McpToolEntry[] = [];
  private retry: NodeJS.Timeout | null = null;
  private attempt: Promise<void> | null = null;

  constructor(
    readonly server: string,
    private readonly config: McpServerConfig,
    private readonly options: McpServerConnectionOptions,
  ) {}

  /** Makes the first connection attempt; resolves either way (a failure schedules a retry). */
  start(): Promise<void> {
    return this.connect();
  }

  status(): McpServerStatus {
    return { server: this.server, state: this.state, reason: this.reason, attempts: this.attempts };
  }

  /** The server's tools while connected; [] otherwise. */
  tools(): readonly McpToolEntry[] {
    return this.state === McpServerState.Connected ? this.entries : [];
  }

  /**
   * Waits for an attempt in progress (bounded by `timeout_seconds`), then throws unless connected.
   * @throws {@link McpError} `SERVER_UNAVAILABLE` with the reason.
   */
  async ensureConnected(): Promise<void> {
    if (this.state === McpServerState.Connecting && this.attempt !== null) await this.attempt;
    if (this.state !== McpServerState.Connected) {
      const why = this.reason === null ? this.state : `${this.state}: ${this.reason}`;
      throw new McpError('SERVER_UNAVAILABLE', this.server, `MCP server '${this.server}' is not connected (${why})`);
    }
  }

  /** Stops retrying and closes the client (a stdio server process is terminated). */
  async close(): Promise<void> {
    this.state = McpServerState.Closed;
    this.reason = null;
    if (this.retry !== null) clearTimeout(this.retry);
    this.retry = null;
    await this.attempt?.catch(() => undefined);
    const client = this.client;
    this.client = null;
    this.entries = [];
    await client?.close().catch(() => undefined);
  }

  private connect(): Promise<void> {
    this.attempt = this.tryConnect().finally(() => {
      this.attempt = null;
    });
    return this.attempt;
  }

  private async tryConnect(): Promise<void> {
    this.attempts += 1;
    this.state = McpServerState.Connecting;
    const timeoutMs = this.config.timeout_seconds * 1000;
    const client = new Client(CLIENT_INFO);
    let stderr = '';
    try {
      const transport = createMcpTransport(this.server, this.config, this.options);
      if (transport instanceof StdioClientTransport) {
        transport.stderr?.on('data', (chunk: Buffer) => {
          stderr = (stderr + chunk.toString()).slice(-STDERR_TAIL_CHARS);
        });
      }
      await client.connect(transport, { timeout: timeoutMs });
      const loaded = await loadMcpTools(this.server, client, { throwOnLoadError: false });
      if (this.isClosed()) {
        await client.close().catch(() => undefined);
        return;
      }
      const onCallFailed = () => void this.checkAlive(client, () => stderr);
      this.entries = toMcpToolEntries({ server: this.server, tools: loaded, allowlist: this.config.tools, timeoutMs, warn: this.options.warn, onCallFailed });
      this.client = client;
      this.state = McpServerState.Connected;
      this.reason = null;
      this.failures = 0;
      client.onclose = () => this.onDropped(client, () => stderr);
    } catch (err) {
      await client.close().catch(() => undefined);
      if (this.isClosed()) return;
      this.fail(failureReason(err, stderr));
    }
  }

  /**
   * After a failed call: an HTTP server that restarted or went away is not noticed by the transport
   * (each call is its own request), so a ping decides whether to reconnect.
   */
  private async checkAlive(client: Client, stderr: () => string): Promise<void> {
    if (this.client !== client) return;
    const alive = await client.ping({ timeout: PING_TIMEOUT_MS }).then(
      () => true,
      () => false,
    );
    if (!alive) this.onDropped(client, stderr);
  }

  /** A connection that was up went away (the server crashed or hung up): reconnect. */
  private onDropped(client: Client, stderr: () => string): void {
    if (this.client !== client || this.isClosed()) return;
    this.client = null;
    this.entries = [];
    void client.close().catch(() => undefined);
    const tail = stderr().trim();
    this.fail(tail === '' ? 'the connection closed' : `the connection closed: ${lastLine(tail)}`);
  }

  private fail(reason: string): void {
    this.state = McpServerState.Failed;
    this.reason = reason;
    this.failures += 1;
    const delay = Math.min(this.options.backoff.initialMs * 2 ** (this.failures - 1), this.options.backoff.maxMs);
    this.options.warn(`mcp_servers.${this.server}: ${reason}; retrying in ${Math.round(delay / 100) / 10} s`);
    this.retry = setTimeout(() => {
      this.retry = null;
      void this.connect();
    }, delay);
    // A server that stays down must not keep a finished process alive.
    this.retry.unref();
  }

  private isClosed(): boolean {
    return this.state === McpServerState.Closed;
  }
}

function failureReason(err: unknown, stderr: string): string {
  // `fetch failed` alone says nothing: the cause holds e.g. `connect ECONNREFUSED 127.0.0.1:9`.
  const cause = typeof err === 'object' && err !== null && 'cause' in err ? messageOf(err.cause) : null;
  const message = (messageOf(err) ?? String(err)) + (cause === null ? '' : ` (${cause})`);
  const tail = stderr.trim();
  return tail === '' ? message : `${message} (stderr: ${lastLine(tail)})`;
}

/** Duck-typed: errors from fetch or a child process may come from another realm (e.g. under jest). */
function messageOf(err: unknown): string | null {
  return typeof err === 'object' && err !== null && 'message' in err && typeof err.message === 'string' ? err.message : null;
}

function lastLine(text: string): string {
  return text.split(/\r?\n/).filter((l) => l.trim() !== '').pop() ?? '';
}
