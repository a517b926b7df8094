import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { SearchAttributeType, type SearchAttributePair } from '@temporalio/common';
import { encodeSearchAttributeIndexedValueType } from '@temporalio/common/lib/search-attributes';
import { CUSTOM_SEARCH_ATTRIBUTES, SA_ITEMS_TOTAL, SA_RUN_STATUS, SA_SUBAGENTS } from '../../../src/contracts/search-attributes';
import { resolveTemporalCli, startDevServer, type DevServer } from '../../../src/devserver';
import * as freePort from '../../../src/devserver/free-port';
import { httpGetStatus } from '../../support/http-get-status';
import { takenPort } from '../../support/taken-port';
import { waitFor } from '../../support/use-temporal';

// The real port picker, observed; a test can make its next answer collide with a taken port.
jest.mock('../../../src/devserver/free-port', () => {
  const actual = jest.requireActual<typeof freePort>('../../../src/devserver/free-port');
  return { ...actual, pickFreePorts: jest.fn(actual.pickFreePorts) };
});
const pickFreePorts = jest.mocked(freePort.pickFreePorts);
const { pickFreePorts: realPickFreePorts } = jest.requireActual<typeof freePort>('../../../src/devserver/free-port');

function portOf(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}

function metricsPortOf(url: string): number {
  return Number(new URL(url).port);
}

function acceptsTcp(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ host: '127.0.0.1', port });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe('startDevServer (real temporal CLI)', () => {
  const cli = resolveTemporalCli();
  let server: DevServer | undefined;
  let connection: Connection | undefined;
  let dataDir: string;

  beforeAll(() => {
    if (cli.path === null) throw new Error('No temporal CLI found: run `npm run temporal:install`');
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'dev-server-test-'));
  });

  afterAll(async () => {
    await connection?.close();
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts from the resolved binary and answers on the returned address', async () => {
    const dbFilename = path.join(dataDir, 'temporal.sqlite');
    server = await startDevServer({ cliPath: cli.path ?? undefined, namespace: 'deerflow-test', dbFilename });
    expect(server.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(server.uiUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(server.namespace).toBe('deerflow-test');
    expect(server.pid).toEqual(expect.any(Number));
    expect(existsSync(dbFilename)).toBe(true);

    connection = await Connection.connect({ address: server.address });
    const info = await connection.workflowService.getSystemInfo({});
    expect(info.serverVersion).toMatch(/^\d+\.\d+/);
    const ns = await connection.workflowService.describeNamespace({ namespace: 'deerflow-test' });
    expect(ns.namespaceInfo?.name).toBe('deerflow-test');
  });

  it('registers our custom search attributes with their types', async () => {
    if (connection === undefined) throw new Error('server did not start');
    const listed = await connection.operatorService.listSearchAttributes({ namespace: 'deerflow-test' });
    const custom = listed.customAttributes;
    for (const { name, type } of CUSTOM_SEARCH_ATTRIBUTES) {
      const expectedType = encodeSearchAttributeIndexedValueType(type);
      expect(expectedType).toEqual(expect.any(Number));
      expect({ name, type: custom[name] }).toEqual({ name, type: expectedType });
    }
  });

  // The server caches search attribute definitions (DEV_SERVER_DYNAMIC_CONFIG): the ones it
  // registered at start must be usable as soon as it reports ready, by the frontend (start) and by
  // the history service (the visibility record a query finds).
  it('takes every custom search attribute on a workflow started right after it is ready, and finds it by them', async () => {
    if (connection === undefined) throw new Error('server did not start');
    const client = new Client({ connection, namespace: 'deerflow-test' });
    const pairs = CUSTOM_SEARCH_ATTRIBUTES.map((key): SearchAttributePair => {
      if (key.type === SearchAttributeType.INT) return { key, value: 7 };
      if (key.type === SearchAttributeType.KEYWORD_LIST) return { key, value: ['listed'] };
      return { key, value: `value-${key.name}` } as SearchAttributePair;
    });
    // Nobody polls its queue: the start and its visibility record are all the server does.
    const handle = await client.workflow.start('unpolledWorkflow', {
      taskQueue: 'dev-server-test-unpolled',
      workflowId: 'dev-server-test-search-attributes',
      typedSearchAttributes: pairs,
    });
    try {
      const query = `${SA_RUN_STATUS.name} = 'value-${SA_RUN_STATUS.name}' AND ${SA_SUBAGENTS.name} = 'listed' AND ${SA_ITEMS_TOTAL.name} = 7`;
      let found: string[] = [];
      // Visibility lags the start.
      await waitFor(async () => {
        found = [];
        for await (const execution of client.workflow.list({ query })) found.push(execution.workflowId);
        return found.length > 0;
      }, 15_000).catch(() => undefined);
      expect(found).toEqual(['dev-server-test-search-attributes']);
      const described = await handle.describe();
      for (const pair of pairs) expect({ name: pair.key.name, value: described.typedSearchAttributes.get(pair.key) }).toEqual({ name: pair.key.name, value: pair.value });
    } finally {
      await handle.terminate('test done');
    }
  });

  it('serves the Web UI on uiUrl', async () => {
    if (server === undefined) throw new Error('server did not start');
    const status = await httpGetStatus(server.uiUrl);
    expect(status).toBeGreaterThanOrEqual(200);
    expect(status).toBeLessThan(400);
  });

  it('serves its Prometheus metrics on metricsUrl, persistence requests by operation among them', async () => {
    if (server === undefined) throw new Error('server did not start');
    expect(server.metricsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/);
    expect(new Set([portOf(server.address), portOf(server.uiUrl), metricsPortOf(server.metricsUrl)]).size).toBe(3);
    const text = await (await fetch(server.metricsUrl)).text();
    expect(text).toMatch(/^persistence_requests\{[^}]*operation="CreateWorkflowExecution"[^}]*\} \d+/m);
  });

  it('stop() ends the process, closes the ports, and is idempotent', async () => {
    if (server === undefined || server.pid === null) throw new Error('server did not start');
    await connection?.close();
    connection = undefined;
    const { pid, address, uiUrl, metricsUrl } = server;
    expect(isAlive(pid)).toBe(true);
    expect(await acceptsTcp(portOf(address))).toBe(true);

    await Promise.all([server.stop(), server.stop()]);
    await server.stop();

    expect(isAlive(pid)).toBe(false);
    expect(await acceptsTcp(portOf(address))).toBe(false);
    expect(await acceptsTcp(portOf(uiUrl))).toBe(false);
    expect(await acceptsTcp(metricsPortOf(metricsUrl))).toBe(false);
  });

  it('fails with the server output when the process exits early, at once when the taken port is one the caller asked for', async () => {
    if (cli.path === null) throw new Error('No temporal CLI');
    const taken = await takenPort();
    pickFreePorts.mockClear();
    try {
      await expect(startDevServer({ cliPath: cli.path, port: taken.port, startTimeoutMs: 15_000 })).rejects.toThrow(
        new RegExp(`exited before it was ready[\\s\\S]*:${taken.port}: bind: address already in use`),
      );
    } finally {
      taken.release();
    }
    expect(pickFreePorts).toHaveBeenCalledTimes(1);
  });

  it('starts again on fresh ports when a port it chose was taken before the server bound it, and says so', async () => {
    if (cli.path === null) throw new Error('No temporal CLI');
    const taken = await takenPort();
    const lines: string[] = [];
    let retried: DevServer | undefined;
    pickFreePorts.mockClear();
    try {
      pickFreePorts.mockImplementationOnce(async (count, host) => {
        const [port, , metricsPort] = await realPickFreePorts(count, host);
        return [port ?? 0, taken.port, metricsPort ?? 0];
      });
      retried = await startDevServer({ cliPath: cli.path, log: (line) => lines.push(line), startTimeoutMs: 20_000 });
      expect(pickFreePorts).toHaveBeenCalledTimes(2);
      expect(portOf(retried.uiUrl)).not.toBe(taken.port);
      expect(lines).toContain(`port ${taken.port} was taken before the dev server bound it; starting again on fresh ports`);
      expect(await httpGetStatus(retried.uiUrl)).toBe(200);
    } finally {
      taken.release();
      await retried?.stop();
    }
  });
});
