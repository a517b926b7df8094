import { request as httpRequest } from 'node:http';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  checkRequestOrigin,
  isGatewaySetupError,
  isLoopbackHostHeader,
  isLoopbackOrigin,
  resolveGatewayAuth,
  resolveOriginPolicy,
  startGateway,
  type GatewayDeps,
  type GatewayServer,
} from '../../src/gateway';

describe('checkRequestOrigin (DNS rebinding / cross-site)', () => {
  const open = resolveOriginPolicy(false, ['https://ignored.example.com']);
  const tokens = resolveOriginPolicy(true, ['https://app.example.com/', 'http://Tools.Example.com:8080']);
  const verdict = (headers: { host?: string; origin?: string }, policy = open) => {
    const err = checkRequestOrigin(headers, policy);
    return err === null ? 'ok' : { status: err.status, code: err.code, field: err.field };
  };

  it.each(['127.0.0.1', '127.0.0.1:8787', 'localhost', 'LOCALHOST:80', '[::1]', '[::1]:8787', '127.0.0.2:1'])('Host %s is loopback', (host) => {
    expect(isLoopbackHostHeader(host)).toBe(true);
  });
  it.each(['evil.example.com', 'evil.example.com:8787', '127.0.0.1.nip.io', '::1', '[::1', '0.0.0.0:8787', '192.168.1.2', 'localhost.:80', 'localhost:x', ''])(
    'Host %s is not loopback',
    (host) => {
      expect(isLoopbackHostHeader(host)).toBe(false);
    },
  );
  it.each(['http://127.0.0.1', 'http://127.0.0.1:3000', 'https://localhost', 'http://localhost:5173', 'http://[::1]:8080'])('Origin %s is loopback', (origin) => {
    expect(isLoopbackOrigin(origin)).toBe(true);
  });
  it.each(['null', 'http://evil.example.com', 'http://localhost.evil.com', 'file://', 'ftp://localhost', 'http://localhost/path', 'http://user@localhost', 'localhost'])(
    'Origin %s is not loopback',
    (origin) => {
      expect(isLoopbackOrigin(origin)).toBe(false);
    },
  );

  it('without tokens: only a loopback Host, and a loopback Origin when one is sent', () => {
    expect(verdict({ host: '127.0.0.1:8787' })).toBe('ok');
    expect(verdict({ host: 'localhost:8787', origin: 'http://localhost:5173' })).toBe('ok');
    // A rebound name: the browser sends the attacker's name as Host, and its page as Origin.
    expect(verdict({ host: 'rebind.evil.com:8787', origin: 'http://rebind.evil.com:8787' })).toEqual({ status: 403, code: 'forbidden', field: 'Host' });
    expect(verdict({ host: 'rebind.evil.com:8787' })).toEqual({ status: 403, code: 'forbidden', field: 'Host' });
    expect(verdict({})).toEqual({ status: 403, code: 'forbidden', field: 'Host' });
    // A cross-site fetch to the real address: loopback Host, foreign Origin.
    expect(verdict({ host: '127.0.0.1:8787', origin: 'https://evil.example.com' })).toEqual({ status: 403, code: 'forbidden', field: 'Origin' });
    expect(verdict({ host: '127.0.0.1:8787', origin: 'null' })).toEqual({ status: 403, code: 'forbidden', field: 'Origin' });
    // allowed_origins does not widen the unauthenticated server.
    expect(verdict({ host: '127.0.0.1', origin: 'https://ignored.example.com' })).toMatchObject({ field: 'Origin' });
  });

  it('with tokens: any Host; an Origin must be loopback or listed (exact origin)', () => {
    expect(verdict({ host: 'deerflow.internal:8787' }, tokens)).toBe('ok');
    expect(verdict({ host: 'deerflow.internal', origin: 'https://app.example.com' }, tokens)).toBe('ok');
    expect(verdict({ host: 'deerflow.internal', origin: 'http://tools.example.com:8080' }, tokens)).toBe('ok');
    expect(verdict({ host: 'deerflow.internal', origin: 'http://localhost:3000' }, tokens)).toBe('ok');
    for (const origin of ['http://app.example.com', 'https://app.example.com:444', 'https://sub.app.example.com', 'https://app.example.com/', 'null']) {
      expect(verdict({ host: 'deerflow.internal', origin }, tokens)).toEqual({ status: 403, code: 'forbidden', field: 'Origin' });
    }
  });

  it('names the header and the value in the message', () => {
    expect(checkRequestOrigin({ host: '127.0.0.1', origin: 'https://evil.example.com' }, open)?.message).toBe(
      'Origin: "https://evil.example.com" is not allowed; only a loopback origin (without gateway.tokens) may call this gateway',
    );
    expect(checkRequestOrigin({ host: 'evil.example.com' }, open)?.message).toContain('Host: "evil.example.com" is not allowed');
  });

  it('refuses an allowed_origins entry that is not a plain http(s) origin, naming its index', () => {
    for (const entry of ['https://app.example.com/app', 'ftp://files.example.com', 'https://u:p@app.example.com', 'not a url']) {
      let caught: unknown = null;
      try {
        resolveOriginPolicy(true, ['https://ok.example.com', entry]);
      } catch (err) {
        caught = err;
      }
      expect(isGatewaySetupError(caught)).toBe(true);
      expect(caught).toMatchObject({ code: 'invalid_origin', message: expect.stringMatching(/^gateway\.allowed_origins\[1\]: /) });
    }
  });
});

interface Answer {
  readonly statusCode: number;
  json(): unknown;
}

/** One request with exactly these headers (node:http, since fetch would not let a test set `Host`). */
function send(server: GatewayServer, options: { method: string; url: string; headers?: Record<string, string>; payload?: unknown }): Promise<Answer> {
  const body = options.payload === undefined ? undefined : JSON.stringify(options.payload);
  const headers = { host: '127.0.0.1', ...options.headers, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: server.port, method: options.method, path: options.url, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        resolve({ statusCode: res.statusCode ?? 0, json: () => JSON.parse(text) as unknown });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body);
  });
}

describe('gateway (listening on loopback, no Temporal)', () => {
  // Every run lookup finds nothing: enough to see which requests reach a route.
  const temporal = {
    workflow: { getHandle: (id: string) => ({ describe: () => Promise.reject(new WorkflowNotFoundError('not found', id, undefined)) }) },
  } as unknown as Client;
  const deps = (auth: GatewayDeps['auth'], allowedOrigins: readonly string[] = []): GatewayDeps => ({
    temporal,
    // No thread has an owner either.
    deerflow: { threadOwner: () => Promise.resolve(null) } as unknown as GatewayDeps['deerflow'],
    events: { putBatch: () => Promise.resolve([]), listEvents: () => Promise.resolve([]) },
    auth,
    allowedOrigins,
    log: () => undefined,
  });
  const servers: GatewayServer[] = [];
  afterEach(async () => {
    for (const server of servers.splice(0)) await server.close();
  });
  const start = async (d: GatewayDeps): Promise<GatewayServer> => {
    const server = await startGateway({ ...d, host: '127.0.0.1', port: 0 });
    servers.push(server);
    return server;
  };

  it('answers a refused Host or Origin with a 403 JSON error naming the header', async () => {
    const app = await start(deps(resolveGatewayAuth([], {})));
    const rebound = await send(app, { method: 'GET', url: '/api/threads/t1/runs/r1', headers: { host: 'rebind.evil.com:8787', origin: 'http://rebind.evil.com:8787' } });
    expect(rebound.statusCode).toBe(403);
    expect(rebound.json()).toEqual({
      error: {
        code: 'forbidden',
        message: 'Host: "rebind.evil.com:8787" is not allowed; without gateway.tokens only a loopback host (127.0.0.1, [::1], localhost) is accepted',
        field: 'Host',
      },
    });
    const crossSite = await send(app, { method: 'POST', url: '/api/runs', headers: { host: '127.0.0.1:8787', origin: 'https://evil.example.com' }, payload: { message: 'x' } });
    expect(crossSite.statusCode).toBe(403);
    expect(crossSite.json()).toMatchObject({ error: { code: 'forbidden', field: 'Origin' } });
    // The CLI / curl: loopback Host, no Origin, reaches the route.
    const cli = await send(app, { method: 'GET', url: '/api/threads/t1/runs/r1', headers: { host: '127.0.0.1:8787' } });
    expect(cli.statusCode).toBe(404);
    expect(cli.json()).toMatchObject({ error: { code: 'not_found', message: 'run "r1" not found in thread "t1"' } });
  });

  it('with tokens checks the Origin before the token', async () => {
    const auth = resolveGatewayAuth([{ user: 'alice', token_env: 'T' }], { T: 'secret' });
    const app = await start(deps(auth, ['https://app.example.com']));
    const foreign = await send(app, { method: 'GET', url: '/api/threads/t1/runs/r1', headers: { host: 'deerflow.internal', origin: 'https://evil.example.com', authorization: 'Bearer secret' } });
    expect(foreign.json()).toMatchObject({ error: { code: 'forbidden', field: 'Origin' } });
    const listed = await send(app, { method: 'GET', url: '/api/threads/t1/runs/r1', headers: { host: 'deerflow.internal', origin: 'https://app.example.com', authorization: 'Bearer secret' } });
    expect(listed.statusCode).toBe(404);
    const noToken = await send(app, { method: 'GET', url: '/api/threads/t1/runs/r1', headers: { host: 'deerflow.internal', origin: 'https://app.example.com' } });
    expect(noToken.statusCode).toBe(401);
  });

  it('routes the longest valid run and task ids to the route (maxParamLength), and validates longer ones', async () => {
    const app = await start(deps(resolveGatewayAuth([], {})));
    const runId = 'r'.repeat(200);
    const longest = await send(app, { method: 'GET', url: `/api/threads/${'t'.repeat(128)}/runs/${runId}` });
    expect(longest.statusCode).toBe(404);
    expect(longest.json()).toMatchObject({ error: { code: 'not_found', message: `run "${runId}" not found in thread "${'t'.repeat(128)}"` } });
    const tooLong = await send(app, { method: 'GET', url: `/api/threads/t1/runs/${'r'.repeat(201)}` });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.json()).toMatchObject({ error: { code: 'bad_request', field: 'run_id' } });
    const task = await send(app, { method: 'POST', url: `/api/threads/t1/runs/r1/tasks/${'k'.repeat(200)}/cancel` });
    expect(task.statusCode).toBe(404);
    expect(task.json()).toMatchObject({ error: { code: 'not_found' } });
  });
});
