import { Agent, request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { DeerFlowClient } from '../../src/client';
import { formatKeyPath, parseConfigText } from '../../src/config';
import { SA_USER_ID } from '../../src/contracts';
import { buildGatewayApp, resolveGatewayAuth } from '../../src/gateway';
import type { BatchStore, Stores } from '../../src/store';
import { leadRunWorkflowId } from '../../src/workflows/lead-run-messages';
import { toWellFormed } from './fuzz-support';
import { openMemoryStores } from '../support/memory-stores';

/** The one run the fake Temporal knows: thread `t1`, run `run_known`, owned by `default`, running. */
export const KNOWN_RUN = { threadId: 't1', runId: 'run_known' } as const;

/** What the routes asked of Temporal, by call name (`start`, `count`, `describe`). */
export type TemporalCalls = string[];

/**
 * A stand-in for the Temporal client, not a server: it records every call, starts nothing, and
 * describes only {@link KNOWN_RUN} (every other workflow is not found). A request refused by
 * validation must leave {@link TemporalCalls} empty.
 */
function fakeTemporal(calls: TemporalCalls, started: unknown[]): Client {
  const knownId = leadRunWorkflowId(KNOWN_RUN.threadId, KNOWN_RUN.runId);
  const handle = (workflowId: string) => ({
    workflowId,
    describe: async () => {
      calls.push('describe');
      if (workflowId !== knownId) throw new WorkflowNotFoundError('workflow not found', workflowId, undefined);
      return {
        type: 'leadRunWorkflow',
        status: { name: 'RUNNING' },
        typedSearchAttributes: { get: (key: unknown) => (key === SA_USER_ID ? 'default' : undefined) },
      };
    },
  });
  const workflow = {
    start: async (_type: string, options: { workflowId: string; args: unknown[] }) => {
      calls.push('start');
      started.push(options.args[0]);
      return handle(options.workflowId);
    },
    count: async () => {
      calls.push('count');
      return { count: 0 };
    },
    getHandle: handle,
  };
  return { workflow } as unknown as Client;
}

/** Names of the batch store's methods that write. */
const BATCH_WRITES = new Set(['createBatch', 'markItemRunning', 'acquireItemLease', 'releaseItemLease', 'recordAttempt', 'completeItem', 'cancelBatch', 'finishBatch']);

/** The real store, with every write also recorded in `writes` (reads pass through unrecorded). */
function recordingWrites(store: BatchStore, writes: string[]): BatchStore {
  return new Proxy(store, {
    get(target, key, receiver) {
      const member: unknown = Reflect.get(target, key, receiver);
      if (typeof member !== 'function') return member;
      return (...args: unknown[]): unknown => {
        if (typeof key === 'string' && BATCH_WRITES.has(key)) writes.push(key);
        return (member as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
}

/** Small limits so item-count checks are reachable with small bodies. */
export const MAX_ITEMS_PER_BATCH = 20;

const CONFIG = `
models:
  - name: demo
    provider: scripted
    script: ./scenario.yaml
subagent_batches:
  enabled: true
  max_items_per_batch: ${MAX_ITEMS_PER_BATCH}
`;

/** A response as read off the socket. */
export interface RawResponse {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

/** What a request sends; `path` goes on the request line as is (with its query string). */
export interface RawRequest {
  readonly method: 'GET' | 'POST';
  readonly path: string;
  readonly headers?: Readonly<Record<string, string>>;
  readonly payload?: string;
}

/** The gateway app over a real SQLite `:memory:` store and the recording fake Temporal. */
export interface GatewayUnderTest {
  readonly app: FastifyInstance;
  /**
   * Sends one request over loopback. Not `app.inject`: light-my-request's ESM-only `cookie`
   * dependency does not load under jest. Not `fetch`: it would normalise `..` segments and
   * percent-encode what a raw client may send.
   */
  send(request: RawRequest): Promise<RawResponse>;
  readonly stores: Stores;
  readonly temporalCalls: TemporalCalls;
  /** Workflow inputs passed to `start`. */
  readonly started: unknown[];
  /** Batch store writes. */
  readonly batchWrites: string[];
  /** Lines the app logged for unexpected (500) errors. */
  readonly logged: string[];
  /** Empties the recordings before a case. */
  reset(): void;
  close(): Promise<void>;
}

/** Builds the app the way `deerflow serve` wires it (no tokens: the caller is the loopback operator). */
export async function gatewayUnderTest(): Promise<GatewayUnderTest> {
  const stores = await openMemoryStores();
  const temporalCalls: TemporalCalls = [];
  const started: unknown[] = [];
  const batchWrites: string[] = [];
  const logged: string[] = [];
  const temporal = fakeTemporal(temporalCalls, started);
  const config = parseConfigText(CONFIG, null);
  const batches = recordingWrites(stores.batches, batchWrites);
  const deerflow = new DeerFlowClient(temporal, config, { agents: stores.agents, events: stores.events, batches });
  const app = buildGatewayApp({ temporal, deerflow, events: stores.events, auth: resolveGatewayAuth([], {}), log: (line) => logged.push(line) });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  const agent = new Agent({ keepAlive: true });
  return {
    app,
    send: (req) => sendRaw(agent, port, req),
    stores,
    temporalCalls,
    started,
    batchWrites,
    logged,
    reset() {
      for (const list of [temporalCalls, started, batchWrites, logged]) list.length = 0;
    },
    async close() {
      agent.destroy();
      await app.close();
      await stores.close();
    },
  };
}

function sendRaw(agent: Agent, port: number, req: RawRequest): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { ...req.headers };
    if (req.payload !== undefined) headers['content-length'] = Buffer.byteLength(req.payload);
    const outgoing = httpRequest({ host: '127.0.0.1', port, agent, method: req.method, path: req.path, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve({ statusCode: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    outgoing.on('error', reject);
    outgoing.end(req.payload);
  });
}

/** The `{ error }` body of a refused request. */
export interface ErrorJson {
  readonly error: { readonly code: string; readonly message: string; readonly field?: string };
}

/**
 * Checks the shape every refusal must have: a 4xx (never a 500), a JSON body `{ error }`, and for a
 * 400 a `field` that the message starts with. Returns the body.
 */
export function expectClientError(response: RawResponse, logged: readonly string[]): ErrorJson {
  expect({ status: response.statusCode, logged }).toEqual({ status: expect.any(Number), logged: [] });
  expect(response.statusCode).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  const body = JSON.parse(response.body) as ErrorJson;
  expect(typeof body.error.code).toBe('string');
  if (response.statusCode === 400) {
    expect(typeof body.error.field).toBe('string');
    expect(body.error.message.startsWith(`${body.error.field ?? ''}: `)).toBe(true);
  }
  return body;
}

/** Asserts a 400 naming `field` (exactly, or a path inside it such as `items.2.prompt` for `items`). */
export function expectBadRequest(response: RawResponse, logged: readonly string[], field: string): ErrorJson {
  const body = expectClientError(response, logged);
  expect({ status: response.statusCode, field: body.error.field, message: body.error.message }).toEqual({
    status: 400,
    field: expect.stringMatching(new RegExp(`^${escapeRegExp(field)}(?:$|[.\\[])`)),
    message: expect.any(String),
  });
  return body;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The field a 400 names for an unknown key `key` holding `value`. Fastify refuses a `__proto__`
 * key anywhere in a body while parsing it, before any route: then the body as a whole is at fault.
 */
export function unknownKeyField(key: string, value: unknown): string {
  return key === '__proto__' || JSON.stringify(value).includes('"__proto__":') ? 'body' : formatKeyPath([key]);
}

/** A JSON POST. */
export function postJson(gw: GatewayUnderTest, path: string, body: unknown): Promise<RawResponse> {
  return gw.send({ method: 'POST', path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(body) });
}

/** `encodeURIComponent` that also takes text with lone surrogates. */
export function encodeText(text: string): string {
  return encodeURIComponent(toWellFormed(text));
}

/** Percent-encodes what may not appear raw on a request line (controls, spaces, non-ASCII, `#`), and nothing else. */
export function requestLineSafe(text: string): string {
  return toWellFormed(text).replace(/[^\x21-\x7e]|#/gu, (c) => encodeURIComponent(c));
}
