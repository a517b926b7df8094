import { TypedSearchAttributes } from '@temporalio/common';
import {
  batchSearchAttributes,
  leadRunSearchAttributes,
  missingSearchAttributes,
} from '../../../src/contracts/identity-search-attributes';
import { SA_AGENT, SA_BATCH_ID, SA_RUN_STATUS, SA_SUBAGENTS, SA_THREAD_ID, SA_USER_ID } from '../../../src/contracts/search-attributes';

const lead = leadRunSearchAttributes({ threadId: 't1', userId: 'alice', agentName: 'default' });

describe('identity search attributes', () => {
  it('finds a lead run by thread, user and agent', () => {
    expect(lead).toEqual([
      { key: SA_THREAD_ID, value: 't1' },
      { key: SA_USER_ID, value: 'alice' },
      { key: SA_AGENT, value: 'default' },
    ]);
  });

  it('finds a batch by id, owner and subagent', () => {
    const runtime = { batchId: 'b1', ownerId: 'bob', subagent: { name: 'general-purpose' } };
    expect(batchSearchAttributes({ runtime } as Parameters<typeof batchSearchAttributes>[0])).toEqual([
      { key: SA_BATCH_ID, value: 'b1' },
      { key: SA_USER_ID, value: 'bob' },
      { key: SA_SUBAGENTS, value: ['general-purpose'] },
    ]);
  });

  it('a run started without attributes (plain Temporal client) upserts all of them', () => {
    expect(missingSearchAttributes(new TypedSearchAttributes(), lead)).toEqual(lead);
  });

  it('a run started with them (DeerFlowClient) upserts none', () => {
    expect(missingSearchAttributes(new TypedSearchAttributes(lead), lead)).toEqual([]);
  });

  it('keeps what the starter set, even a different value, and fills in only the rest', () => {
    const present = new TypedSearchAttributes([
      { key: SA_USER_ID, value: 'starter-chose-this' },
      { key: SA_RUN_STATUS, value: 'running' },
    ]);
    expect(missingSearchAttributes(present, lead)).toEqual([
      { key: SA_THREAD_ID, value: 't1' },
      { key: SA_AGENT, value: 'default' },
    ]);
  });
});
