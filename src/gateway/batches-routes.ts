import { WorkflowNotFoundError } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import type { StartBatchRequest } from '../client';
import type { BatchItemCounts, BatchItemSummary, BatchRecord, BatchState } from '../contracts';
import { BatchStoreErrorCode, isBatchStoreError } from '../store';
import { batchPath, findBatch } from './batch-lookup';
import { GatewayError, GatewayErrorCode } from './errors';
import type { GatewayDeps } from './gateway-deps';
import { jsonLines } from './json-lines';
import { callerOf } from './request-caller';
import { assertBatchIdAvailable, threadClaimError } from './thread-access';
import { BatchItemsQuerySchema, BatchParamsSchema, DEFAULT_BATCH_ITEMS_LIMIT, parseInput, StartBatchBodySchema } from './validation';

/**
 * Largest `POST /api/batches` body: 5,000 items (`subagent_batches.max_items_per_batch`'s
 * default) of about 3 KB each. Every other route keeps the app's 1 MiB.
 */
export const BATCH_BODY_LIMIT_BYTES = 16 * 1024 * 1024;

/** `201` body of `POST /api/batches`. */
export interface StartBatchResponse {
  readonly batch_id: string;
  readonly workflow_id: string;
  readonly item_count: number;
}

/** Body of `GET /api/batches/:batch_id`. */
export interface BatchResponse {
  /** The stored batch with its item counts (authoritative). */
  readonly batch: BatchRecord;
  /** The batch workflow's `state` query, or null when the workflow cannot be reached. */
  readonly state: BatchState | null;
}

/** Body of `POST /api/batches/:batch_id/cancel`. */
export interface CancelBatchResponse {
  readonly batch_id: string;
  /** Items this call cancelled (0 when the batch had already finished). */
  readonly cancelled_items: number;
  readonly counts: BatchItemCounts;
}

/** Body of `GET /api/batches/:batch_id/items`. */
export interface BatchItemsPage {
  /** Items in key order, results as previews. */
  readonly items: readonly BatchItemSummary[];
  /** `after_key` of the next page, or null when no item (with the `status` asked for) follows. */
  readonly next_after_key: string | null;
}

// `startBatch` mostly names the request's camelCase fields; callers sent the snake_case ones.
const REQUEST_FIELDS: Readonly<Record<string, string>> = {
  '(request)': 'body',
  batchId: 'batch_id',
  ownerId: 'user_id',
  title: 'title',
  subagentType: 'subagent_type',
  subagent_type: 'subagent_type',
  items: 'items',
  maxLiveItems: 'max_live_items',
  maxRunningItems: 'max_running_items',
  parentModel: 'model',
  model: 'model',
};
const BATCHES_OFF = 'subagent_batches.enabled: ';

/**
 * Turns what `startBatch` rejects before anything is stored into a 400 naming the field. It
 * throws plain Errors worded `<field path>: <problem>` (several joined with `; `), with the
 * request's camelCase names; a taken id is the store's `already_exists`.
 */
function requestError(err: unknown): GatewayError | null {
  if (isBatchStoreError(err, BatchStoreErrorCode.AlreadyExists)) return GatewayError.batchIdInUse(err.batchId ?? '');
  if (!(err instanceof Error) || err.constructor !== Error) return null;
  // Nothing in the request can fix this one, so it names no field.
  if (err.message.startsWith(BATCHES_OFF)) return new GatewayError(GatewayErrorCode.BadRequest, err.message);
  const head = /^(\(request\)|[A-Za-z_]+)(?=[.:])/.exec(err.message)?.[1];
  // Any other Error (a wiring problem such as a missing store) is not the caller's: a 500.
  if (head === undefined || REQUEST_FIELDS[head] === undefined) return null;
  const renamed = err.message.replace(/(^|; )(\(request\)|[A-Za-z_]+)(?=[.:])/g, (_whole, sep: string, name: string) => sep + (REQUEST_FIELDS[name] ?? name));
  const match = /^([^:]+): ([\s\S]*)$/.exec(renamed);
  return match?.[1] === undefined || match[2] === undefined ? null : GatewayError.badRequest(match[1], match[2]);
}

/** `POST /api/batches`, `GET /api/batches/:batchId`, `POST .../cancel`, `GET .../items`, `GET .../items.jsonl`. */
export function registerBatchRoutes(app: FastifyInstance, deps: GatewayDeps): void {
  const log = deps.log ?? ((line: string) => process.stderr.write(`${line}\n`));

  app.post('/api/batches', { bodyLimit: BATCH_BODY_LIMIT_BYTES }, async (request, reply) => {
    const caller = callerOf(request);
    const body = parseInput(StartBatchBodySchema, request.body, 'body');
    if (body.batch_id !== undefined) await assertBatchIdAvailable(deps, body.batch_id, caller);
    const start: StartBatchRequest = {
      batchId: body.batch_id,
      // A token decides who the caller is; only the trusted loopback operator may act for others.
      ownerId: caller.scoped ? caller.userId : (body.user_id ?? caller.userId),
      title: body.title,
      subagentType: body.subagent_type,
      items: body.items,
      maxLiveItems: body.max_live_items,
      maxRunningItems: body.max_running_items,
      modelName: body.model,
    };
    let started;
    try {
      started = await deps.deerflow.startBatch(start);
    } catch (err) {
      throw threadClaimError(err, caller, true) ?? requestError(err) ?? err;
    }
    const response: StartBatchResponse = { batch_id: started.batchId, workflow_id: started.workflowId, item_count: started.itemCount };
    return reply.code(201).header('location', batchPath(started.batchId)).send(response);
  });

  app.get('/api/batches/:batchId', async (request): Promise<BatchResponse> => {
    const { batchId } = parseInput(BatchParamsSchema, request.params, 'path');
    const { batch } = await findBatch(deps, batchId, callerOf(request));
    let state: BatchState | null = null;
    try {
      state = await deps.deerflow.getBatchState(batchId);
    } catch (err) {
      // The stored record answers the request; the live state is extra (the workflow may be gone).
      if (!(err instanceof WorkflowNotFoundError)) log(`gateway: state query of batch ${batchId} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
    return { batch, state };
  });

  app.post('/api/batches/:batchId/cancel', async (request): Promise<CancelBatchResponse> => {
    const { batchId } = parseInput(BatchParamsSchema, request.params, 'path');
    const { ownerId } = await findBatch(deps, batchId, callerOf(request));
    const result = await deps.deerflow.cancelBatch(batchId, ownerId);
    return { batch_id: batchId, cancelled_items: result.cancelledItems, counts: result.counts };
  });

  app.get('/api/batches/:batchId/items', async (request): Promise<BatchItemsPage> => {
    const { batchId } = parseInput(BatchParamsSchema, request.params, 'path');
    const query = parseInput(BatchItemsQuerySchema, request.query, 'query');
    // listBatchItems is empty for a missing or foreign batch; the lookup turns both into a 404.
    const { ownerId } = await findBatch(deps, batchId, callerOf(request));
    const limit = query.limit ?? DEFAULT_BATCH_ITEMS_LIMIT;
    const items = await deps.deerflow.listBatchItems(batchId, ownerId, { afterKey: query.after_key, limit, status: query.status });
    const last = items.at(-1)?.key;
    if (last === undefined || items.length < limit) return { items, next_after_key: null };
    // A full page may still be the last one: look one item further so the last page says null.
    const next = await deps.deerflow.listBatchItems(batchId, ownerId, { afterKey: last, limit: 1, status: query.status });
    return { items, next_after_key: next.length > 0 ? last : null };
  });

  app.get('/api/batches/:batchId/items.jsonl', async (request, reply) => {
    const { batchId } = parseInput(BatchParamsSchema, request.params, 'path');
    // Looked up before any byte is sent, so a foreign or missing batch is still a JSON 404.
    const { ownerId } = await findBatch(deps, batchId, callerOf(request));
    const lines = jsonLines(deps.deerflow.exportBatchItems(batchId, ownerId));
    // Fastify destroys the stream when the client disconnects, and turns an error before the first
    // line into the usual JSON error; after that the response can only be cut off, so log it here.
    lines.once('error', (err) => {
      if (reply.raw.headersSent) log(`gateway: export of batch ${batchId} failed: ${err.stack ?? err.message}`);
    });
    return reply.type('application/x-ndjson; charset=utf-8').send(lines);
  });
}
