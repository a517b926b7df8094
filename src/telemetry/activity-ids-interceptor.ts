import { trace } from '@opentelemetry/api';
import type { ActivityInterceptors, ActivityInterceptorsFactory } from '@temporalio/worker';
import { deerflowIdsOf, idSpanAttributes, type DeerflowIds } from './deerflow-ids';

/**
 * Puts the ids an activity works on (thread, run, task, lead tool call, batch: read from its input)
 * on every log line of the activity (`log` from `@temporalio/activity` and the SDK's own activity
 * lines) and, when tracing is on, on the activity's span. Listed after the tracing interceptors, so
 * the span active at `execute` is the activity's.
 */
export const activityIdsInterceptor: ActivityInterceptorsFactory = (): ActivityInterceptors => {
  let ids: DeerflowIds = {};
  return {
    inbound: {
      execute: (input, next) => {
        ids = deerflowIdsOf(input.args[0]);
        trace.getActiveSpan()?.setAttributes(idSpanAttributes(ids));
        return next(input);
      },
    },
    outbound: {
      getLogAttributes: (input, next) => next({ ...input, ...ids }),
    },
  };
};
