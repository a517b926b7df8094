import { readdirSync, readFileSync } from 'node:fs';
import { parseConfigText } from '../../../src/config';
import { isMcpError, McpToolRegistry, type McpToolRegistryOptions } from '../../../src/mcp';
import { stringify } from 'yaml';
import { everythingServerConfig, startMcpHttpServer, type TestMcpHttpServer } from '../../support/mcp-servers';

const FAST_BACKOFF = { initialMs: 100, maxMs: 400 };
const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const item of open.splice(0).reverse()) await item.close();
});

async function registry(servers: Record<string, unknown>, options: Partial<McpToolRegistryOptions> = {}): Promise<{ mcp: McpToolRegistry; warnings: string[] }> {
  const warnings: string[] = [];
  const config = parseConfigText(stringify({ mcp_servers: servers }), null);
  const mcp = McpToolRegistry.fromConfig(config, { configDir: __dirname, env: {}, backoff: FAST_BACKOFF, warn: (m) => warnings.push(m), ...options });
  open.push(mcp);
  await mcp.start();
  return { mcp, warnings };
}

async function httpServer(port?: number): Promise<TestMcpHttpServer> {
  const server = await startMcpHttpServer(port);
  open.push(server);
  return server;
}

async function eventually(check: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 50));
  }
}

test('server-everything over stdio: tools namespaced <server>__<tool>, narrowed by the server allow-list, callable', async () => {
  const { mcp } = await registry({ everything: everythingServerConfig({ tools: ['echo', 'get-sum'] }) });
  expect(mcp.statuses()).toEqual([{ server: 'everything', state: 'connected', reason: null, attempts: 1 }]);
  const entries = mcp.entries();
  expect(entries.map((e) => [e.name, e.server, e.serverToolName])).toEqual([
    ['everything__echo', 'everything', 'echo'],
    ['everything__get-sum', 'everything', 'get-sum'],
  ]);
  expect(entries[0]?.inputSchema).toMatchObject({ type: 'object', properties: { message: { type: 'string' } }, required: ['message'] });
  await expect(mcp.find('everything__echo')?.invoke({ message: 'hi' })).resolves.toBe('Echo: hi');
  await expect(mcp.find('everything__get-sum')?.invoke({ a: 2, b: 3 })).resolves.toBe('The sum of 2 and 3 is 5.');
  expect(mcp.find('elsewhere__echo')).toBeNull();
});

test('streamable HTTP on loopback: ${NAME} headers resolved from the environment, an invalid tool name skipped with a warning', async () => {
  const server = await httpServer();
  const { mcp, warnings } = await registry(
    { web: { transport: 'http', url: server.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } } },
    { env: { WEB_TOKEN: 's3cret' } },
  );
  expect(mcp.entries().map((e) => e.name)).toEqual(['web__shout', 'web__wait']);
  expect(warnings).toEqual([expect.stringContaining('mcp_servers.web: tool "needs.dot" skipped: "web__needs.dot" is not a valid tool name')]);
  await expect(mcp.find('web__shout')?.invoke({ text: 'quiet' })).resolves.toBe('QUIET');
  expect(server.authorizations.every((a) => a === 'Bearer s3cret')).toBe(true);
});

test('an unset variable fails the server naming the key, never a value', async () => {
  const server = await httpServer();
  const { mcp } = await registry({ web: { transport: 'http', url: server.url, headers: { Authorization: 'Bearer ${WEB_TOKEN}' } } });
  expect(mcp.statuses()[0]).toMatchObject({ state: 'failed', reason: 'mcp_servers.web.headers.Authorization: environment variable WEB_TOKEN is not set' });
  expect(server.authorizations).toEqual([]);
});

test('a server down at start is retried with backoff: its tools come once it is up; meanwhile a call says why', async () => {
  const probe = await startMcpHttpServer();
  const { port } = probe;
  await probe.close();
  const { mcp, warnings } = await registry({ late: { transport: 'http', url: `http://127.0.0.1:${port}/mcp`, timeout_seconds: 2 } });
  expect(mcp.statuses()[0]).toMatchObject({ server: 'late', state: 'failed', reason: expect.stringContaining('ECONNREFUSED') });
  expect(mcp.entries()).toEqual([]);
  const error = await mcp.find('late__shout')?.invoke({ text: 'x' }).catch((e: unknown) => e);
  expect(isMcpError(error) && error.code === 'SERVER_UNAVAILABLE').toBe(true);
  expect(String(error)).toContain("MCP server 'late' is not connected (failed: fetch failed");
  expect(warnings[0]).toMatch(/^mcp_servers\.late: fetch failed .*; retrying in 0\.1 s$/);

  await httpServer(port);
  await eventually(() => mcp.statuses()[0]?.state === 'connected');
  await expect(mcp.find('late__shout')?.invoke({ text: 'up' })).resolves.toBe('UP');
});

test('a crashed stdio server is started again and its next call succeeds', async () => {
  const { mcp } = await registry({ everything: everythingServerConfig({ tools: ['echo', 'get-env'] }) });
  const env = JSON.parse(String(await mcp.find('everything__get-env')?.invoke({}))) as Record<string, string>;
  // The server's process id is not exposed; its parent's is ours, so find the child by its command line.
  const pid = childPidOf(process.pid, 'server-everything');
  expect(env['PATH']).toBeDefined();
  process.kill(pid, 'SIGKILL');
  await eventually(() => mcp.statuses()[0]?.attempts === 2 && mcp.statuses()[0]?.state === 'connected');
  await expect(mcp.find('everything__echo')?.invoke({ message: 'again' })).resolves.toBe('Echo: again');
});

test('an HTTP server that restarted (its session gone) is noticed on the failed call and reconnected', async () => {
  const first = await startMcpHttpServer();
  const { mcp } = await registry({ web: { transport: 'http', url: first.url } });
  await expect(mcp.find('web__shout')?.invoke({ text: 'one' })).resolves.toBe('ONE');
  await first.close();
  await httpServer(first.port);
  await expect(mcp.find('web__shout')?.invoke({ text: 'lost' })).rejects.toThrow();
  await eventually(() => mcp.statuses()[0]?.attempts === 2 && mcp.statuses()[0]?.state === 'connected');
  await expect(mcp.find('web__shout')?.invoke({ text: 'two' })).resolves.toBe('TWO');
});

test('cancellation reaches the MCP request: an aborted call rejects at once and the server sees it cancelled', async () => {
  const server = await httpServer();
  const { mcp } = await registry({ web: { transport: 'http', url: server.url } });
  const controller = new AbortController();
  const call = mcp.find('web__wait')?.invoke({ ms: 30_000 }, { signal: controller.signal });
  setTimeout(() => controller.abort(), 200);
  const started = Date.now();
  await expect(call).rejects.toThrow();
  expect(Date.now() - started).toBeLessThan(5_000);
  await eventually(() => server.cancelled.includes(30_000));
});

test('close() terminates connections and stops retrying', async () => {
  const { mcp } = await registry({ everything: everythingServerConfig({ tools: ['echo'] }), down: { transport: 'http', url: 'http://127.0.0.1:9/mcp' } });
  await mcp.close();
  expect(mcp.statuses().map((s) => s.state)).toEqual(['closed', 'closed']);
  expect(mcp.entries()).toEqual([]);
});

function childPidOf(parent: number, needle: string): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      if (ppid === parent && cmdline.includes(needle)) return Number(entry);
    } catch {
      // The process ended while we looked.
    }
  }
  throw new Error(`no child process of ${parent} matching ${needle}`);
}
