import { Writable } from 'node:stream';
import { JsonTemporalLogger } from '../../../src/telemetry';

function capture(): { stream: Writable; lines: () => Array<Record<string, unknown>> } {
  let text = '';
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      text += chunk.toString();
      done();
    },
  });
  return { stream, lines: () => text.trim().split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>) };
}

it('writes one JSON object per line with level name, ISO time, service, message and the metadata as fields', () => {
  const out = capture();
  const logger = new JsonTemporalLogger({ level: 'INFO', serviceName: 'deerflow-worker', destination: out.stream });
  logger.info('Activity completed', { activityType: 'runSubagent', thread_id: 't1', run_id: 'r1', task_id: '0.0', [Symbol('hidden')]: 1 });
  logger.log('WARN', 'Activity failed', { error: new Error('store down') });
  const [completed, failed] = out.lines();
  expect(completed).toEqual({
    level: 'info',
    time: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) as unknown,
    service: 'deerflow-worker',
    msg: 'Activity completed',
    activityType: 'runSubagent',
    thread_id: 't1',
    run_id: 'r1',
    task_id: '0.0',
  });
  expect(failed).toMatchObject({ level: 'warn', msg: 'Activity failed', error: { type: 'Error', message: 'store down', stack: expect.stringContaining('store down') as unknown } });
});

it('drops lines below its level', () => {
  const out = capture();
  const logger = new JsonTemporalLogger({ level: 'WARN', serviceName: 's', destination: out.stream });
  logger.debug('Activity started');
  logger.info('Worker state changed');
  logger.error('Worker failed');
  expect(out.lines().map((l) => [l.level, l.msg])).toEqual([['error', 'Worker failed']]);
});
