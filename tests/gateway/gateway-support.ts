import type { Client } from '@temporalio/client';
import { resolveGatewayAuth, startGateway, type GatewayAuth, type GatewayDeps, type GatewayServer } from '../../src/gateway';
import type { RunEventStore } from '../../src/store';
import type { Harness } from '../support/harness';
import type { TemporalFixture } from '../support/use-temporal';

/** A JSON response. */
export interface JsonResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly body: unknown;
}

/** A gateway listening on an ephemeral loopback port, with a small HTTP client for it. */
export interface TestGateway {
  readonly url: string;
  readonly server: GatewayServer;
  call(method: string, path: string, options?: { body?: unknown; rawBody?: string; token?: string; headers?: Record<string, string> }): Promise<JsonResponse>;
}

/** Options of {@link GatewayFixture.start}. */
export interface TestGatewayOptions {
  readonly auth?: GatewayAuth;
  /** Replaces the harness's client (e.g. to watch what a route reads). */
  readonly deerflow?: GatewayDeps['deerflow'];
  /** Replaces the harness's event store (e.g. to count reads). */
  readonly events?: RunEventStore;
  readonly streamPollMs?: number;
  readonly streamPollMaxMs?: number;
  readonly maxStreamsPerCaller?: number;
  readonly heartbeatMs?: number;
}

/** Starts gateways over harnesses and closes them after each test. */
export interface GatewayFixture {
  start(harness: Harness, options?: TestGatewayOptions): Promise<TestGateway>;
}

/** Two users with tokens, as `gateway.tokens` would configure them. */
export const TOKENS = { alice: 'alice-secret-token', bob: 'bob-secret-token' } as const;

/** Auth with {@link TOKENS}, resolved from a fake environment the way `deerflow serve` resolves it. */
export function tokenAuth(): GatewayAuth {
  return resolveGatewayAuth(
    [
      { user: 'alice', token_env: 'T_ALICE' },
      { user: 'bob', token_env: 'T_BOB' },
    ],
    { T_ALICE: TOKENS.alice, T_BOB: TOKENS.bob },
  );
}

/** Registers the gateway lifecycle on top of a {@link TemporalFixture}. */
export function useGateway(temporal: TemporalFixture): GatewayFixture {
  const open: GatewayServer[] = [];
  afterEach(async () => {
    for (const server of open.splice(0)) await server.close();
  });
  return {
    async start(harness, options = {}) {
      const client: Client = temporal.env().client;
      const server = await startGateway({
        host: '127.0.0.1',
        port: 0,
        temporal: client,
        deerflow: options.deerflow ?? harness.client,
        events: options.events ?? harness.stores.events,
        auth: options.auth ?? resolveGatewayAuth([], {}),
        streamPollMs: options.streamPollMs ?? 50,
        // Short, so streams in tests notice rows and a run's end quickly even once idle.
        streamPollMaxMs: options.streamPollMaxMs ?? 400,
        maxStreamsPerCaller: options.maxStreamsPerCaller,
        heartbeatMs: options.heartbeatMs,
        log: () => undefined,
      });
      open.push(server);
      return {
        url: server.url,
        server,
        async call(method, path, callOptions = {}) {
          const headers: Record<string, string> = { ...callOptions.headers };
          if (callOptions.token !== undefined) headers.authorization = `Bearer ${callOptions.token}`;
          let body: string | undefined = callOptions.rawBody;
          if (callOptions.body !== undefined) {
            headers['content-type'] = 'application/json';
            body = JSON.stringify(callOptions.body);
          }
          const response = await fetch(`${server.url}${path}`, { method, headers, body });
          const text = await response.text();
          return { status: response.status, headers: response.headers, body: text === '' ? null : (JSON.parse(text) as unknown) };
        },
      };
    },
  };
}

/** The parts of the API responses the tests read. */
export interface StartedBody {
  readonly run_id: string;
  readonly thread_id: string;
  readonly workflow_id: string;
}

/** Reads a started-run body, failing the test with the whole response when it is not a 201. */
export function started(response: JsonResponse): StartedBody {
  expect({ status: response.status, body: response.body }).toMatchObject({ status: 201 });
  return response.body as StartedBody;
}

/** A `task` tool call of a scripted lead turn. */
export function task(description: string, prompt: string, subagent = 'general-purpose'): Record<string, unknown> {
  return { name: 'task', args: { description, prompt, subagent_type: subagent } };
}

/** The run resource path. */
export function runUrl(run: StartedBody, suffix = ''): string {
  return `/api/threads/${run.thread_id}/runs/${run.run_id}${suffix}`;
}
