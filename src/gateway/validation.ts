import { z } from 'zod';
import { configErrorMap, formatKeyPath } from '../config';
import { BATCH_LIST_MAX_LIMIT, BatchItemStatusSchema, isValidThreadId } from '../contracts';
import { GatewayError } from './errors';

/** Largest page `GET .../events` returns. */
export const MAX_EVENTS_LIMIT = 1000;
/** Page size of `GET /api/batches/:batch_id/items` without `limit`. */
export const DEFAULT_BATCH_ITEMS_LIMIT = 100;

const THREAD_ID_RULE = 'must be 1-128 characters: letters, digits, _ . - (starting with a letter or digit)';
const text = z.string().trim().min(1);
const threadId = z.string().refine(isValidThreadId, THREAD_ID_RULE);
/** Query strings arrive as text; a cursor or limit is a plain decimal integer. */
const queryInt = z
  .string()
  .regex(/^\d{1,15}$/, 'must be a non-negative integer')
  .transform(Number);

/** Body of `POST /api/runs`. */
export const StartRunBodySchema = z.strictObject({
  message: text,
  thread_id: threadId.optional(),
  /** Ignored when the caller's token maps to a user. */
  user_id: text.max(200).optional(),
  agent: text.optional(),
  model: text.optional(),
  max_concurrent: z.number().int().min(1).optional(),
  max_total: z.number().int().min(1).optional(),
});
export type StartRunBody = z.infer<typeof StartRunBodySchema>;

/** Path parameters of every run route. */
export const RunParamsSchema = z.strictObject({
  threadId,
  runId: text.max(200),
});
export type RunParams = z.infer<typeof RunParamsSchema>;

/** Body of `POST .../answer`: the user's answer to the run's question. */
export const AnswerBodySchema = z.strictObject({ answer: z.string().trim().min(1, 'must not be empty').max(100_000) });

/** Body of `POST .../tasks/:task/extend`: seconds to add to the task's deadline. */
export const ExtendBodySchema = z.strictObject({ seconds: z.number().int('must be a whole number of seconds').min(1, 'must be at least 1').max(86_400) });

/** Path of one task of a run (`.../tasks/:taskId/...`): the id the run gave the task, e.g. `0.1`. */
export const TaskParamsSchema = RunParamsSchema.extend({ taskId: text.max(200) });

/** Query of `GET .../events`. */
export const EventsQuerySchema = z.strictObject({
  task_id: text.optional(),
  after_seq: queryInt.optional(),
  limit: queryInt.pipe(z.number().int().min(1).max(MAX_EVENTS_LIMIT)).optional(),
});
export type EventsQuery = z.infer<typeof EventsQuerySchema>;

/** Query of `GET .../stream`. */
export const StreamQuerySchema = z.strictObject({ after_seq: queryInt.optional() });

/** `Last-Event-ID` of a reconnecting EventSource: the seq of the last row it received. */
export const LastEventIdSchema = queryInt;

/**
 * Body of `POST /api/batches`: the shape only. What depends on the config or the catalog (blank
 * prompts, duplicate keys, the item ceiling, the subagent, the model) is checked by `startBatch`, which
 * rejects the whole request before anything is stored.
 */
export const StartBatchBodySchema = z.strictObject({
  title: text,
  subagent_type: text,
  items: z
    .array(
      z.strictObject({
        key: z.string().optional(),
        prompt: z.string(),
        acceptance_criteria: z.array(z.string()).optional(),
      }),
    )
    .min(1),
  max_live_items: z.number().int().min(1).optional(),
  max_running_items: z.number().int().min(1).optional(),
  /** Also the thread (workspace) of the batch's items, hence the thread id's rule. */
  batch_id: threadId.optional(),
  model: text.optional(),
  /** Ignored when the caller's token maps to a user. */
  user_id: text.max(200).optional(),
});

/** Path parameters of every batch route. */
export const BatchParamsSchema = z.strictObject({ batchId: threadId });

/** Query of `GET /api/batches/:batch_id/items`. */
export const BatchItemsQuerySchema = z.strictObject({
  after_key: z.string().min(1).optional(),
  limit: queryInt.pipe(z.number().int().min(1).max(BATCH_LIST_MAX_LIMIT)).optional(),
  status: BatchItemStatusSchema.optional(),
});

// Path parameters are camelCase in the route pattern; callers know them by their API names.
const PARAM_NAMES: Readonly<Record<string, string>> = { threadId: 'thread_id', runId: 'run_id', batchId: 'batch_id', taskId: 'task_id' };

/**
 * Validates one part of a request.
 * @param where - names the input in errors when the problem is the whole value (`body`, `query`,
 *   `Last-Event-ID`); `path` maps the route's parameter names to their API names (`thread_id`).
 * @throws GatewayError `bad_request` naming the first offending field.
 */
export function parseInput<S extends z.ZodType>(schema: S, value: unknown, where: string): z.output<S> {
  const parsed = schema.safeParse(value, { error: configErrorMap });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (issue === undefined) throw GatewayError.badRequest(where, 'is invalid');
  if (issue.code === 'unrecognized_keys') {
    const key = issue.keys[0] ?? '';
    throw GatewayError.badRequest(fieldName([...issue.path, key], where), 'unknown field');
  }
  // A missing body (no JSON sent) reads better as "body: expected object" than "(root): is required".
  const message = issue.path.length === 0 && value === undefined ? 'is required (send a JSON object)' : issue.message.replace(/\s*\n\s*/g, ' ');
  throw GatewayError.badRequest(fieldName(issue.path, where), message);
}

function fieldName(path: readonly PropertyKey[], where: string): string {
  if (path.length === 0) return where;
  const [head, ...rest] = path;
  const renamed = where === 'path' && typeof head === 'string' ? (PARAM_NAMES[head] ?? head) : head;
  return formatKeyPath([renamed ?? '', ...rest]);
}
