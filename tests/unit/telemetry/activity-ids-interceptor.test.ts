import { log } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import type { LogLevel, LogMetadata } from '@temporalio/worker';
import { activityIdsInterceptor } from '../../../src/telemetry';

/** A logger that keeps what it is given. */
function recordingLogger() {
  const lines: Array<{ level: LogLevel; message: string; meta: LogMetadata }> = [];
  const at = (level: LogLevel) => (message: string, meta: LogMetadata = {}) => lines.push({ level, message, meta });
  return {
    lines,
    logger: { log: (level: LogLevel, message: string, meta: LogMetadata = {}) => lines.push({ level, message, meta }), trace: at('TRACE'), debug: at('DEBUG'), info: at('INFO'), warn: at('WARN'), error: at('ERROR') },
  };
}

describe('activityIdsInterceptor', () => {
  it('adds the input ids to every log line of the activity, beside the SDK activity fields', async () => {
    const { lines, logger } = recordingLogger();
    const env = new MockActivityEnvironment({ activityType: 'runSubagent' }, { interceptors: [activityIdsInterceptor], logger });
    const activity = async (input: { threadId: string; runId: string; taskId: string }) => {
      log.warn('store write failed; retrying', { retryInMs: 100 });
      return input.taskId;
    };
    await expect(env.run(activity, { threadId: 'thread-1', runId: 'run-1', taskId: '0.0' })).resolves.toBe('0.0');
    const line = lines.find((l) => l.message === 'store write failed; retrying');
    expect(line?.meta).toMatchObject({ activityType: 'runSubagent', thread_id: 'thread-1', run_id: 'run-1', task_id: '0.0', retryInMs: 100 });
  });
});
