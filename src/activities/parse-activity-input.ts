import { ApplicationFailure } from '@temporalio/common';
import type { z } from 'zod';
import { formatZodIssues, INVALID_INPUT_TYPE } from '../contracts';

/**
 * `raw` as `schema` reads it. An activity input the schema refuses fails the activity for good
 * (`InvalidInput`, every field named): no retry can fix the input a workflow scheduled.
 */
export function parseActivityInput<S extends z.ZodType>(schema: S, raw: unknown, activity: string): z.output<S> {
  const parsed = schema.safeParse(raw);
  if (parsed.success) return parsed.data;
  throw ApplicationFailure.nonRetryable(`${activity} input: ${formatZodIssues(parsed.error.issues, '(input)')}`, INVALID_INPUT_TYPE);
}
