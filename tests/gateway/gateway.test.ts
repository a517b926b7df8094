import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Client } from '@temporalio/client';
import { runServe } from '../../src/cli/serve-command';
import { loadConfig } from '../../src/config';
import type { RunEvent } from '../../src/contracts';
import {
  formatSse,
  GatewaySetupErrorCode,
  isGatewaySetupError,
  isLoopbackHost,
  resolveGatewayAuth,
  startGateway,
  tailRunEvents,
  type GatewayDeps,
} from '../../src/gateway';
import { useMemoryStores } from '../support/memory-stores';

describe('auth', () => {
  const tokens = [
    { user: 'alice', token_env: 'T_ALICE' },
    { user: 'alice', token_env: 'T_ALICE_2' },
    { user: 'bob', token_env: 'T_BOB' },
  ];

  it('maps bearer tokens to users (a user may have several) and refuses the rest', () => {
    const auth = resolveGatewayAuth(tokens, { T_ALICE: 'a1', T_ALICE_2: ' a2 ', T_BOB: 'b1' });
    expect(auth.required).toBe(true);
    expect(auth.authenticate('Bearer a1')).toEqual({ userId: 'alice', scoped: true });
    expect(auth.authenticate('bearer a2')).toEqual({ userId: 'alice', scoped: true });
    expect(auth.authenticate('Bearer b1')).toEqual({ userId: 'bob', scoped: true });
    for (const header of [undefined, '', 'Bearer', 'Bearer a1x', 'Basic a1', 'a1', 'Bearer a1 b1']) {
      expect(() => auth.authenticate(header)).toThrow(expect.objectContaining({ code: 'unauthorized', status: 401 }));
    }
  });

  it('without tokens every caller is the unscoped user default', () => {
    const auth = resolveGatewayAuth([], {});
    expect(auth.required).toBe(false);
    expect(auth.authenticate(undefined)).toEqual({ userId: 'default', scoped: false });
    expect(auth.authenticate('Bearer whatever')).toEqual({ userId: 'default', scoped: false });
  });

  it('refuses unset and duplicate token variables, naming the config key', () => {
    const setup = (env: NodeJS.ProcessEnv) => {
      try {
        resolveGatewayAuth(tokens, env);
      } catch (err) {
        return isGatewaySetupError(err) ? { code: err.code, message: err.message } : err;
      }
      return null;
    };
    expect(setup({ T_ALICE: 'a1', T_ALICE_2: '  ', T_BOB: 'b1' })).toEqual({
      code: GatewaySetupErrorCode.MissingToken,
      message: 'gateway.tokens[1].token_env: environment variable T_ALICE_2 is not set',
    });
    expect(setup({ T_ALICE: 'a1', T_ALICE_2: 'a2', T_BOB: 'a1' })).toEqual({
      code: GatewaySetupErrorCode.DuplicateToken,
      message: 'gateway.tokens[2].token_env: T_BOB holds the same token as an earlier entry',
    });
  });

  it.each([
    ['127.0.0.1', true],
    ['127.1.2.3', true],
    ['::1', true],
    ['[::1]', true],
    ['::ffff:127.0.0.1', true],
    ['localhost', true],
    ['0.0.0.0', false],
    ['::', false],
    ['192.168.1.10', false],
    ['example.com', false],
    ['128.0.0.1', false],
  ])('isLoopbackHost(%s) = %s', (host, loopback) => {
    expect(isLoopbackHost(host)).toBe(loopback);
  });
});

describe('binding', () => {
  // Never used: the host check and the listener need none of them.
  const unused = {} as Client;
  const deps = (tokens: GatewayDeps['auth']): GatewayDeps => ({
    temporal: unused,
    deerflow: {} as GatewayDeps['deerflow'],
    events: { putBatch: () => Promise.resolve([]), listEvents: () => Promise.resolve([]) },
    auth: tokens,
  });

  it('refuses a non-loopback host without tokens, and binds it with tokens', async () => {
    await expect(startGateway({ ...deps(resolveGatewayAuth([], {})), host: '0.0.0.0', port: 0 })).rejects.toMatchObject({
      code: 'unsafe_host',
      message: expect.stringContaining('gateway.host: refusing to listen on 0.0.0.0 without authentication'),
    });
    const auth = resolveGatewayAuth([{ user: 'alice', token_env: 'T' }], { T: 'secret' });
    const server = await startGateway({ ...deps(auth), host: '0.0.0.0', port: 0 });
    try {
      const response = await fetch(`http://127.0.0.1:${server.port}/api/runs`, { method: 'POST' });
      expect(response.status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it('deerflow serve stops with a usage error before starting anything when the config is unsafe', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'deerflow-serve-'));
    try {
      writeFileSync(join(dir, 'config.yaml'), 'gateway:\n  host: 0.0.0.0\n');
      const loaded = loadConfig({ path: join(dir, 'config.yaml'), env: {} });
      await expect(runServe(loaded, { until: Promise.resolve(), log: () => undefined })).rejects.toMatchObject({ name: 'CliExit', exitCode: 2 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('formatSse', () => {
  it('writes id, event and one-line JSON data, and strips line breaks from id and event', () => {
    expect(formatSse({ id: '7', event: 'subagent.step', data: { text: 'a\nb' } })).toBe('id: 7\nevent: subagent.step\ndata: {"text":"a\\nb"}\n\n');
    expect(formatSse({ event: 'end\ndata: x', data: null })).toBe('event: end data: x\ndata: null\n\n');
  });
});

describe('tailRunEvents', () => {
  const stores = useMemoryStores();

  const put = (i: number) =>
    stores().events.putBatch([{ dedupeKey: `k${i}`, runId: 'r1', threadId: 't1', category: 'subagent', event: 'subagent.step', taskId: `task${i % 2}`, payload: { i } }]);

  it('resumed from the last yielded seq it loses and repeats nothing while rows are written, then ends closed', async () => {
    let open = true;
    const writer = (async () => {
      for (let i = 0; i < 40; i += 1) {
        await put(i);
        await new Promise((r) => setTimeout(r, 2));
      }
      open = false;
    })();
    const seen: RunEvent[] = [];
    let cursor = 0;
    let end: string | null = null;
    // Consume in parts of 7 rows, as a client that keeps disconnecting would.
    while (end === null) {
      const stop = new AbortController();
      const tail = tailRunEvents({ events: stores().events, runId: 'r1', afterSeq: cursor, isOpen: async () => open, pollMs: 1, signal: stop.signal, pageSize: 3 });
      for (let taken = 0; ; ) {
        const next = await tail.next();
        if (next.done) {
          if (next.value === 'closed') end = 'closed';
          break;
        }
        seen.push(next.value);
        cursor = next.value.seq;
        taken += 1;
        if (taken === 7) stop.abort();
      }
    }
    await writer;
    const all = await stores().events.listEvents({ runId: 'r1', limit: 1000 });
    expect(all).toHaveLength(40);
    expect(seen.map((e) => e.seq)).toEqual(all.map((e) => e.seq));
  });

  it('stops at once when aborted while waiting', async () => {
    const stop = new AbortController();
    const tail = tailRunEvents({ events: stores().events, runId: 'r1', afterSeq: 0, isOpen: async () => true, pollMs: 60_000, signal: stop.signal });
    const next = tail.next();
    setTimeout(() => stop.abort(), 20);
    await expect(next).resolves.toEqual({ done: true, value: 'aborted' });
  });
});
