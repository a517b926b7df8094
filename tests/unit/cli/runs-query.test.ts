import { CliExit, EXIT_USAGE } from '../../../src/cli/load-cli-config';
import { leadRunsQuery } from '../../../src/cli/runs-query';

function usageError(act: () => unknown): CliExit {
  try {
    act();
  } catch (err) {
    if (err instanceof CliExit) return err;
    throw err;
  }
  throw new Error('expected a usage error');
}

describe('leadRunsQuery', () => {
  it('lists lead runs only when nothing is filtered', () => {
    expect(leadRunsQuery({})).toBe("WorkflowType = 'leadRunWorkflow'");
  });

  it('narrows by status, user and thread on the run search attributes', () => {
    expect(leadRunsQuery({ status: 'waiting_for_answer', user: 'alice@example.com', thread: 'thread_1.a-b' })).toBe(
      "WorkflowType = 'leadRunWorkflow' AND DeerflowRunStatus = 'waiting_for_answer' AND DeerflowUserId = 'alice@example.com' AND DeerflowThreadId = 'thread_1.a-b'",
    );
  });

  it.each([
    ['--user', { user: "x' OR WorkflowType != '" }],
    ['--user', { user: 'a b' }],
    ['--user', { user: 'back\\slash' }],
    ['--thread', { thread: '"quoted"' }],
    ['--thread', { thread: '' }],
    ['--user', { user: 'u'.repeat(129) }],
  ])('refuses a %s value that could change the query: %j', (flag, filter) => {
    const err = usageError(() => leadRunsQuery(filter));
    expect(err.exitCode).toBe(EXIT_USAGE);
    expect(err.message).toMatch(new RegExp(`^${flag}: must be 1-128 characters`));
  });

  it('refuses a status no run upserts, naming the ones it takes', () => {
    const err = usageError(() => leadRunsQuery({ status: "completed' OR '1" }));
    expect(err.message).toBe(
      '--status: must be one of running, waiting_for_answer, completed, failed, cancelled, timed_out, needs_input (got "completed\' OR \'1")',
    );
  });
});
