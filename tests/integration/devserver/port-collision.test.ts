import net from 'node:net';
import { resolveTemporalCli, startDevServer, type DevServer } from '../../../src/devserver';
import * as freePort from '../../../src/devserver/free-port';

// The real port picker, observed; single tests make its next answer collide with a taken port.
jest.mock('../../../src/devserver/free-port', () => {
  const actual = jest.requireActual<typeof freePort>('../../../src/devserver/free-port');
  return { ...actual, pickFreePorts: jest.fn(actual.pickFreePorts) };
});
const pickFreePorts = jest.mocked(freePort.pickFreePorts);
const { pickFreePorts: realPickFreePorts } = jest.requireActual<typeof freePort>('../../../src/devserver/free-port');

/** A port held by another listener for the whole test, as a process that took it would. */
async function takenPort(): Promise<{ port: number; release: () => void }> {
  const blocker = net.createServer((socket) => socket.destroy());
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
  const address = blocker.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, release: () => blocker.close() };
}

function portOf(url: string): number {
  return Number(new URL(url).port);
}

describe('startDevServer when a port is taken between its choice and the bind (real temporal CLI)', () => {
  const cliPath = resolveTemporalCli().path ?? undefined;
  let server: DevServer | undefined;

  beforeAll(() => {
    if (cliPath === undefined) throw new Error('No temporal CLI found: run `npm run temporal:install`');
  });

  afterEach(async () => {
    await server?.stop();
    server = undefined;
    pickFreePorts.mockClear();
  });

  it('starts again on fresh ports when a port it chose was taken, and says so', async () => {
    const taken = await takenPort();
    const lines: string[] = [];
    try {
      pickFreePorts.mockImplementationOnce(async (count, host) => {
        const [port, , metricsPort] = await realPickFreePorts(count, host);
        return [port ?? 0, taken.port, metricsPort ?? 0];
      });
      server = await startDevServer({ cliPath, log: (line) => lines.push(line), startTimeoutMs: 20_000 });
    } finally {
      taken.release();
    }
    expect(pickFreePorts).toHaveBeenCalledTimes(2);
    expect(portOf(server.uiUrl)).not.toBe(taken.port);
    expect(lines).toContain(`port ${taken.port} was taken before the dev server bound it; starting again on fresh ports`);
    expect((await fetch(server.uiUrl)).status).toBe(200);
  });

  it('fails at once when the taken port is one the caller asked for', async () => {
    const taken = await takenPort();
    try {
      await expect(startDevServer({ cliPath, uiPort: taken.port, startTimeoutMs: 20_000 })).rejects.toThrow(
        new RegExp(`exited before it was ready[\\s\\S]*:${taken.port}: bind: address already in use`),
      );
    } finally {
      taken.release();
    }
    expect(pickFreePorts).toHaveBeenCalledTimes(1);
  });
});
