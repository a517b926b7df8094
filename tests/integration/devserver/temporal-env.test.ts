import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../../src/contracts/search-attributes';
import * as freePort from '../../../src/devserver/free-port';
import { httpGetStatus } from '../../support/http-get-status';
import { takenPort } from '../../support/taken-port';
import { createTestEnv, createTestEnvWithUi } from '../../support/temporal-env';

// The real port picker, observed; a test can make its next answer collide with a taken port.
jest.mock('../../../src/devserver/free-port', () => {
  const actual = jest.requireActual<typeof freePort>('../../../src/devserver/free-port');
  return { ...actual, pickFreePorts: jest.fn(actual.pickFreePorts) };
});
const pickFreePorts = jest.mocked(freePort.pickFreePorts);

describe('createTestEnv', () => {
  const envs: TestWorkflowEnvironment[] = [];

  afterAll(async () => {
    await Promise.all(envs.map((env) => env.teardown()));
  });

  it('starts a local dev server on loopback with our search attributes registered', async () => {
    const env = await createTestEnv();
    envs.push(env);
    expect(env.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(env.supportsTimeSkipping).toBe(false);
    const listed = await env.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    const registered = Object.keys(listed.customAttributes);
    expect(registered).toEqual(expect.arrayContaining(CUSTOM_SEARCH_ATTRIBUTES.map((a) => a.name)));
  });

  it('starts again on a fresh UI port when the one it chose was taken before the server bound it', async () => {
    // Another listener holds the port the first pick answers, as a process that took it in between would.
    const taken = await takenPort();
    pickFreePorts.mockClear();
    pickFreePorts.mockResolvedValueOnce([taken.port]);
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { env, uiUrl } = await createTestEnvWithUi();
      envs.push(env);
      expect(pickFreePorts).toHaveBeenCalledTimes(2);
      expect(Number(new URL(uiUrl).port)).not.toBe(taken.port);
      expect(warn).toHaveBeenCalledWith(expect.stringMatching(/^test dev server did not start \(start 1 of 3\); starting again on fresh ports/));
      expect(await httpGetStatus(uiUrl)).toBe(200);
    } finally {
      warn.mockRestore();
      taken.release();
    }
  }, 60_000);
});
