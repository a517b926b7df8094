import { DynamicStructuredTool, type StructuredToolInterface } from '@langchain/core/tools';
import type { AppConfig } from '../config/schema';
import { mcpServerOf } from '../contracts/mcp-tool-names';
import { McpServerConnection, type McpBackoff, type McpServerStatus } from './mcp-server-connection';
import type { McpToolEntry } from './mcp-tool';

/** Inputs of {@link McpToolRegistry.fromConfig}. */
export interface McpToolRegistryOptions {
  /** Folder of the config file (relative `cwd`s). */
  readonly configDir: string;
  /** Where `${NAME}` references are read. @default process.env */
  readonly env?: NodeJS.ProcessEnv;
  /** @default 1 s doubling up to 60 s */
  readonly backoff?: McpBackoff;
  /** @default console.warn */
  readonly warn?: (message: string) => void;
}

const DEFAULT_BACKOFF: McpBackoff = { initialMs: 1000, maxMs: 60_000 };

/**
 * The MCP servers of one worker process (an instance, never a global): one connection per enabled
 * server of `mcp_servers`, their statuses and their tools. Built and started by the worker, closed
 * when it stops; activities read it through their deps.
 */
export class McpToolRegistry {
  private constructor(private readonly connections: readonly McpServerConnection[]) {}

  /** A registry with no servers (no `mcp_servers`, or a caller that never connects). */
  static empty(): McpToolRegistry {
    return new McpToolRegistry([]);
  }

  /** One (not yet started) connection per enabled server. */
  static fromConfig(config: AppConfig, options: McpToolRegistryOptions): McpToolRegistry {
    const context = {
      configDir: options.configDir,
      env: options.env ?? process.env,
      backoff: options.backoff ?? DEFAULT_BACKOFF,
      warn: options.warn ?? ((message: string) => console.warn(message)),
    };
    return new McpToolRegistry(
      Object.entries(config.mcp_servers)
        .filter(([, server]) => server.enabled)
        .map(([name, server]) => new McpServerConnection(name, server, context)),
    );
  }

  /**
   * Makes every server's first connection attempt, in parallel, each bounded by its
   * `timeout_seconds`. Never rejects: a server that fails is reported and retried in the background.
   */
  async start(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.start()));
  }

  /** Closes every connection (stdio servers are terminated) and stops retrying. */
  async close(): Promise<void> {
    await Promise.all(this.connections.map((c) => c.close()));
  }

  /** Every enabled server's status, in config order. */
  statuses(): McpServerStatus[] {
    return this.connections.map((c) => c.status());
  }

  /** The tools of every connected server, in config order. */
  entries(): McpToolEntry[] {
    return this.connections.flatMap((c) => [...c.tools()]);
  }

  /**
   * The tool named `name` for one call, or null when no enabled server claims the name. A tool of a
   * server that is not connected is returned too: calling it throws the server's status, so the
   * caller answers with that reason instead of "unknown tool".
   */
  find(name: string): StructuredToolInterface | null {
    const server = mcpServerOf(name);
    const connection = server === null ? undefined : this.connections.find((c) => c.server === server);
    if (connection === undefined) return null;
    const entry = connection.tools().find((e) => e.name === name);
    if (entry !== undefined) return entry.tool;
    return new DynamicStructuredTool({
      name,
      description: `Tool of MCP server '${connection.server}'`,
      schema: { type: 'object', properties: {}, additionalProperties: true },
      func: async (args: Record<string, unknown>, _runManager, config) => {
        await connection.ensureConnected();
        // Connected meanwhile (an attempt was in progress): the call goes to the fresh tool list.
        const fresh = connection.tools().find((e) => e.name === name);
        if (fresh === undefined) throw new Error(`MCP server '${connection.server}' has no tool '${name.slice(connection.server.length + 2)}'`);
        return fresh.tool.invoke(args, { signal: config?.signal }) as Promise<string>;
      },
    });
  }
}
