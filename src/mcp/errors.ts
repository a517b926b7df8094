/**
 * Errors of the MCP layer. A tool call's error becomes an error tool message the agent reads, so
 * messages name the server and the config key, never a resolved secret.
 */

/** Machine-readable reason of an {@link McpError}. */
export type McpErrorCode =
  /** An `env` or `headers` value references a variable the worker's environment does not set. */
  | 'MISSING_VARIABLE'
  /** The server is not connected (it failed to start, crashed, or the worker is closing). */
  | 'SERVER_UNAVAILABLE';

/** An error of the MCP layer, with a stable code and the server it concerns. */
export class McpError extends Error {
  override readonly name = 'McpError';
  readonly code: McpErrorCode;
  readonly server: string;

  constructor(code: McpErrorCode, server: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.server = server;
  }
}

/** True for an {@link McpError}. */
export function isMcpError(err: unknown): err is McpError {
  return err instanceof Error && err.name === 'McpError' && 'server' in err;
}
