import * as nodePath from 'node:path';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerConfig } from '../config/mcp-servers-schema';
import { McpError } from './errors';

/** Where a transport's relative paths and `${NAME}` references are resolved. */
export interface McpTransportContext {
  /** Folder of the config file: a relative `cwd` is resolved against it. */
  readonly configDir: string;
  readonly env: NodeJS.ProcessEnv;
}

const VARIABLE_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The SDK transport for one configured server, with `${NAME}` references in `env` and `headers`
 * replaced from the worker's environment.
 * @throws {@link McpError} `MISSING_VARIABLE` naming the key (not the value) when a variable is unset.
 */
export function createMcpTransport(server: string, config: McpServerConfig, context: McpTransportContext): Transport {
  if (config.transport === 'http') {
    const headers = resolveValues(server, 'headers', config.headers ?? {}, context.env);
    return new StreamableHTTPClientTransport(new URL(config.url ?? ''), { requestInit: { headers } });
  }
  return new StdioClientTransport({
    command: config.command ?? '',
    args: [...(config.args ?? [])],
    // Added to the SDK's minimal default environment (PATH, HOME, ...): the worker's secrets stay out.
    env: resolveValues(server, 'env', config.env ?? {}, context.env),
    cwd: config.cwd === undefined ? undefined : nodePath.resolve(context.configDir, config.cwd),
    // Piped, not inherited: the connection keeps the tail as the reason a server failed.
    stderr: 'pipe',
  });
}

function resolveValues(server: string, field: string, values: Readonly<Record<string, string>>, env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      key,
      value.replace(VARIABLE_REFERENCE, (_match, variable: string) => {
        const resolved = env[variable];
        if (resolved === undefined || resolved === '') {
          throw new McpError('MISSING_VARIABLE', server, `mcp_servers.${server}.${field}.${key}: environment variable ${variable} is not set`);
        }
        return resolved;
      }),
    ]),
  );
}
