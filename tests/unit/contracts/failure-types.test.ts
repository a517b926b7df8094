import { ActivityFailure, ApplicationFailure, CancelledFailure } from '@temporalio/common';
import {
  applicationFailureOf,
  BATCH_NOT_FOUND_TYPE,
  BATCH_STORE_INVALID_TYPE,
  BATCH_STORE_NOT_FOUND_TYPE,
  CANCELLED_FAILURE_NAME,
  CONFIGURATION_ERROR_TYPE,
  INVALID_INPUT_TYPE,
  isApplicationFailureOf,
  isCancelledFailure,
  TASK_DEADLINE_EXCEEDED_TYPE,
  WORKER_SHUTDOWN_TYPE,
} from '../../../src/contracts/failure-types';

function failedActivity(cause?: Error): ActivityFailure {
  return new ActivityFailure('Activity task failed', 'runSubagent', '1', 'NON_RETRYABLE_FAILURE', 'worker', cause);
}

describe('failure types', () => {
  it('keep the strings recorded histories and retry policies carry', () => {
    expect([
      CONFIGURATION_ERROR_TYPE,
      TASK_DEADLINE_EXCEEDED_TYPE,
      WORKER_SHUTDOWN_TYPE,
      INVALID_INPUT_TYPE,
      BATCH_NOT_FOUND_TYPE,
      BATCH_STORE_NOT_FOUND_TYPE,
      BATCH_STORE_INVALID_TYPE,
    ]).toEqual(['ConfigurationError', 'TaskDeadlineExceeded', 'WorkerShutdown', 'InvalidInput', 'BatchNotFound', 'BatchStore.not_found', 'BatchStore.invalid']);
  });

  it('CANCELLED_FAILURE_NAME is the name the SDK gives its cancellation', () => {
    expect(new CancelledFailure('CANCELLED').name).toBe(CANCELLED_FAILURE_NAME);
  });
});

describe('applicationFailureOf / isApplicationFailureOf', () => {
  it('finds an ApplicationFailure of the type thrown directly (inside an activity)', () => {
    const failure = ApplicationFailure.retryable('worker going away', WORKER_SHUTDOWN_TYPE);
    expect(applicationFailureOf(failure, WORKER_SHUTDOWN_TYPE)).toBe(failure);
    expect(isApplicationFailureOf(failure, WORKER_SHUTDOWN_TYPE)).toBe(true);
  });

  it('looks through the ActivityFailure a workflow receives to the activity failure it wraps', () => {
    const failure = ApplicationFailure.nonRetryable('deadline', TASK_DEADLINE_EXCEEDED_TYPE, { turns: 3 });
    expect(applicationFailureOf(failedActivity(failure), TASK_DEADLINE_EXCEEDED_TYPE)).toBe(failure);
    expect(applicationFailureOf(failedActivity(failure), TASK_DEADLINE_EXCEEDED_TYPE)?.details).toEqual([{ turns: 3 }]);
    expect(isApplicationFailureOf(failedActivity(failure), TASK_DEADLINE_EXCEEDED_TYPE)).toBe(true);
  });

  it('is null for another type, another failure or no failure at all', () => {
    const invalid = ApplicationFailure.nonRetryable('item not terminal', BATCH_STORE_INVALID_TYPE);
    expect(applicationFailureOf(invalid, BATCH_STORE_NOT_FOUND_TYPE)).toBeNull();
    expect(applicationFailureOf(failedActivity(invalid), BATCH_STORE_NOT_FOUND_TYPE)).toBeNull();
    expect(applicationFailureOf(ApplicationFailure.nonRetryable('untyped'), BATCH_STORE_INVALID_TYPE)).toBeNull();
    expect(applicationFailureOf(failedActivity(new CancelledFailure('CANCELLED')), WORKER_SHUTDOWN_TYPE)).toBeNull();
    expect(applicationFailureOf(failedActivity(), WORKER_SHUTDOWN_TYPE)).toBeNull();
    expect(applicationFailureOf(new Error(WORKER_SHUTDOWN_TYPE), WORKER_SHUTDOWN_TYPE)).toBeNull();
    expect(applicationFailureOf(WORKER_SHUTDOWN_TYPE, WORKER_SHUTDOWN_TYPE)).toBeNull();
    expect(isApplicationFailureOf(undefined, WORKER_SHUTDOWN_TYPE)).toBe(false);
  });

  it('does not look past one ActivityFailure (only the activity’s own failure counts)', () => {
    const nested = new ApplicationFailure('wrapper', 'Other', false, undefined, ApplicationFailure.nonRetryable('inner', INVALID_INPUT_TYPE));
    expect(isApplicationFailureOf(failedActivity(nested), INVALID_INPUT_TYPE)).toBe(false);
  });
});

describe('isCancelledFailure', () => {
  it('is true for the SDK’s CancelledFailure', () => {
    expect(isCancelledFailure(new CancelledFailure('WORKER_SHUTDOWN'))).toBe(true);
  });

  it('is false for other errors, including one that only borrows the name', () => {
    expect(isCancelledFailure(Object.assign(new Error('CANCELLED'), { name: CANCELLED_FAILURE_NAME }))).toBe(false);
    expect(isCancelledFailure(failedActivity(new CancelledFailure('CANCELLED')))).toBe(false);
    expect(isCancelledFailure(ApplicationFailure.retryable('CANCELLED', CANCELLED_FAILURE_NAME))).toBe(false);
    expect(isCancelledFailure(null)).toBe(false);
  });
});
