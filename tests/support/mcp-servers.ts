import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { z } from 'zod';

/** `mcp_servers` entry starting `@modelcontextprotocol/server-everything` over stdio (tools `echo`, `get-sum`, ...). */
export function everythingServerConfig(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [join(__dirname, '../../node_modules/@modelcontextprotocol/server-everything/dist/index.js'), 'stdio'],
    ...extra,
  };
}

/** A real streamable-HTTP MCP server on loopback, built with the SDK, and what it saw. */
export interface TestMcpHttpServer {
  readonly url: string;
  readonly port: number;
  /** `authorization` header of every request. */
  readonly authorizations: Array<string | undefined>;
  /** `wait` calls whose request was cancelled by the client. */
  readonly cancelled: number[];
  close(): Promise<void>;
}

/**
 * Starts the server on 127.0.0.1 (`port` 0: any free port). Tools: `shout` (upper-cases
 * `text`), `wait` (waits `ms` unless cancelled) and `needs.dot` (a name the MCP spec allows but model
 * providers do not).
 */
export async function startMcpHttpServer(port = 0): Promise<TestMcpHttpServer> {
  const authorizations: Array<string | undefined> = [];
  const cancelled: number[] = [];
  // Stateful, like most real servers: a client's cancellation (its own request) reaches the session
  // that runs the call it cancels.
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const http: Server = createServer((req, res) => {
    authorizations.push(req.headers.authorization);
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (known !== undefined) {
      void known.handleRequest(req, res);
      return;
    }
    const transport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sessionId) => void sessions.set(sessionId, transport),
    });
    void buildServer(cancelled)
      .connect(transport)
      .then(() => transport.handleRequest(req, res));
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  const bound = (http.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    port: bound,
    authorizations,
    cancelled,
    close: () =>
      new Promise<void>((resolve) => {
        for (const transport of sessions.values()) void transport.close();
        http.closeAllConnections();
        http.close(() => resolve());
      }),
  };
}

function buildServer(cancelled: number[]): McpServer {
  const server = new McpServer({ name: 'test-http', version: '1.0.0' });
  server.registerTool('shout', { description: 'Upper-cases a text', inputSchema: { text: z.string() } }, ({ text }) => ({
    content: [{ type: 'text', text: text.toUpperCase() }],
  }));
  server.registerTool('wait', { description: 'Waits ms milliseconds', inputSchema: { ms: z.number() } }, ({ ms }, extra) =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve({ content: [{ type: 'text', text: `waited ${ms} ms` }] }), ms);
      extra.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        cancelled.push(ms);
        resolve({ content: [{ type: 'text', text: 'cancelled' }] });
      });
    }),
  );
  server.registerTool('needs.dot', { description: 'A dotted name' }, () => ({ content: [{ type: 'text', text: 'dot' }] }));
  return server;
}

/**
 * The SDK's streamable-HTTP test server for the tests of one file: started before them, closed
 * after. Call the returned function inside a test for the running server.
 */
export function useMcpHttpServer(): () => TestMcpHttpServer {
  let server: TestMcpHttpServer | undefined;
  beforeAll(async () => {
    server = await startMcpHttpServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  return () => {
    if (server === undefined) throw new Error('the MCP HTTP server is not started yet (use it inside a test)');
    return server;
  };
}
