import { DynamicStructuredTool, type StructuredToolInterface } from '@langchain/core/tools';
import { isValidToolName, mcpToolName } from '../contracts/mcp-tool-names';

/**
 * One MCP tool as agents see it. It carries everything a later consumer needs without calling the
 * server (its server, own name, description and JSON schema), so a tool can be listed or searched
 * before it is bound.
 */
export interface McpToolEntry {
  readonly server: string;
  /** The name agents call it by: `<server>__<tool>`. */
  readonly name: string;
  /** The server's own name for it. */
  readonly serverToolName: string;
  readonly description: string;
  /** The input JSON schema as the model is given it. */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** Calls the server; returns text; honours `config.signal`; a server-side error throws. */
  readonly tool: StructuredToolInterface;
}

/** What {@link toMcpToolEntries} was given: the tools the adapter loaded from one server. */
export interface LoadedServerTools {
  readonly server: string;
  readonly tools: readonly DynamicStructuredTool[];
  /** The server's `tools` allow-list (its own names); null = all. */
  readonly allowlist: readonly string[] | null;
  /** Bound on one call (`timeout_seconds`), on top of the caller's abort signal. */
  readonly timeoutMs: number;
  /** Told when a call failed without being aborted (the connection checks whether the server is still there). */
  readonly onCallFailed: () => void;
  /** Told about each tool that is skipped because its namespaced name is not a valid tool name. */
  readonly warn: (message: string) => void;
}

/**
 * Namespaces a server's tools (`<server>__<tool>`), keeps those its allow-list names, and skips
 * (with a warning) any whose namespaced name a provider would reject.
 */
export function toMcpToolEntries(loaded: LoadedServerTools): McpToolEntry[] {
  const entries: McpToolEntry[] = [];
  for (const source of loaded.tools) {
    if (loaded.allowlist !== null && !loaded.allowlist.includes(source.name)) continue;
    const name = mcpToolName(loaded.server, source.name);
    if (!isValidToolName(name)) {
      loaded.warn(`mcp_servers.${loaded.server}: tool ${JSON.stringify(source.name)} skipped: ${JSON.stringify(name)} is not a valid tool name (letters, digits, _ and -, at most 64)`);
      continue;
    }
    const inputSchema = source.schema as Record<string, unknown>;
    entries.push({
      server: loaded.server,
      name,
      serverToolName: source.name,
      description: source.description,
      inputSchema,
      tool: new DynamicStructuredTool({
        name,
        description: source.description,
        schema: inputSchema,
        func: async (args: Record<string, unknown>, _runManager, config) => {
          try {
            return toolOutputText(await source.invoke(args, { signal: config?.signal, timeout: loaded.timeoutMs }));
          } catch (err) {
            if (config?.signal?.aborted !== true) loaded.onCallFailed();
            throw err;
          }
        },
      }),
    });
  }
  return entries;
}

/**
 * An MCP result as the text of a tool message: text blocks joined, any other block named by its
 * type (the model cannot read binary content through a text tool message anyway).
 */
export function toolOutputText(output: unknown): string {
  if (typeof output === 'string') return output;
  const blocks: unknown[] = Array.isArray(output) ? output : [output];
  return blocks
    .map((block) => {
      if (typeof block === 'string') return block;
      if (typeof block === 'object' && block !== null) {
        const { type, text } = block as { type?: unknown; text?: unknown };
        if (typeof text === 'string') return text;
        return `[${typeof type === 'string' ? type : 'content'} block]`;
      }
      return String(block);
    })
    .join('\n');
}
