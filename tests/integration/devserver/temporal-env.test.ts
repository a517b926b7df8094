import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../../src/contracts/search-attributes';
import { createTestEnv } from '../../support/temporal-env';

describe('createTestEnv', () => {
  let env: TestWorkflowEnvironment | undefined;

  afterAll(async () => {
    await env?.teardown();
  });

  it('starts a local dev server on loopback with our search attributes registered', async () => {
    env = await createTestEnv();
    expect(env.address).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(env.supportsTimeSkipping).toBe(false);
    const listed = await env.connection.operatorService.listSearchAttributes({ namespace: 'default' });
    const registered = Object.keys(listed.customAttributes);
    expect(registered).toEqual(expect.arrayContaining(CUSTOM_SEARCH_ATTRIBUTES.map((a) => a.name)));
  });
});
