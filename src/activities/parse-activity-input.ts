import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import { formatZodIssues, INVALID_INPUT_TYPE } from '../contracts';
import { ACTIVITY_INPUT_SCHEMAS, type ActivityName } from './activity-input-schemas';

/**
 * `raw` as activity `activity`'s schema ({@link ACTIVITY_INPUT_SCHEMAS}) reads it. An input the
 * schema refuses fails the activity for good (`InvalidInput`, every field named): no retry can fix
 * the input a workflow scheduled.
 */
export function parseActivityInput<N extends ActivityName>(activity: N, raw: unknown): z.output<(typeof ACTIVITY_INPUT_SCHEMAS)[N]> {
  const schema: z.ZodType = ACTIVITY_INPUT_SCHEMAS[activity];
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data as z.output<(typeof ACTIVITY_INPUT_SCHEMAS)[N]>;
  throw ApplicationFailure.nonRetryable(`${activity} input: ${formatZodIssues(parsed.error.issues, '(input)')}`, INVALID_INPUT_TYPE);
}
