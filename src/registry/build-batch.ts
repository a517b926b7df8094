import { z } from 'zod';
import type { AppConfig } from '../config';
import {
  AgentNameSchema,
  BATCH_ID_MAX_CHARS,
  CreateBatchInputSchema,
  formatZodIssues,
  isValidThreadId,
  type BatchWorkflowInput,
  type CatalogEntry,
  type CreateBatchInput,
} from '../contracts';

/** One item as a caller gives it. Without keys, items are keyed by position (`000001`, ...). */
export const BatchRequestItemSchema = z.strictObject({
  key: z.string().optional(),
  prompt: z.string(),
  acceptance_criteria: z.array(z.string()).optional(),
});

/** What a caller asks for when starting a batch (CLI, client, gateway, the lead's `batch_task`). */
const threadSafe = 'must be 1-128 characters: letters, digits, _ . - (starting with a letter or digit)';

export const BatchRequestSchema = z.strictObject({
  /** Also the default thread id (the items' workspace), hence the thread id's rule. */
  batchId: z.string().max(BATCH_ID_MAX_CHARS).refine(isValidThreadId, threadSafe),
  ownerId: z.string().trim().min(1).default('default'),
  title: z.string(),
  subagentType: AgentNameSchema,
  items: z.array(BatchRequestItemSchema).min(1, 'must hold at least one item'),
  /** Thread whose workspace and event feed the items use; default: the batch id. */
  threadId: z.string().refine(isValidThreadId, threadSafe).optional(),
  /** The lead run that started the batch (its `batch_task` call), if any. */
  runId: z.string().trim().min(1).nullable().default(null),
  /** The model a subagent set to `inherit` runs on. */
  parentModel: z.string().trim().min(1),
  /** Skills the items' subagent may use at most (the starting lead run's snapshot); null = all. */
  availableSkills: z.array(z.string()).nullable().default(null),
  maxLiveItems: z.number().int().min(1).optional(),
  maxRunningItems: z.number().int().min(1).optional(),
  /** Continue-as-new threshold of the batch workflow's history (events); tuning and tests. */
  historyEventLimit: z.number().int().min(100).optional(),
});
export type BatchRequest = z.input<typeof BatchRequestSchema>;

/** A validated batch: the store rows to write, then the workflow input to start. */
export interface BuiltBatch {
  readonly create: CreateBatchInput;
  readonly workflow: BatchWorkflowInput;
  readonly maxItems: number;
}

/** Positional keys sort like the items: zero-padded to the width of the item count (at least 6). */
function positionalKey(index: number, count: number): string {
  return String(index + 1).padStart(Math.max(6, String(count).length), '0');
}

/**
 * Validates a batch request against the frozen config and the catalog, clamps its limits to the
 * `subagent_batches` ceilings, and resolves everything its items run with. Nothing is stored here.
 * @throws Error naming the field (`items.3.prompt: must not be empty`, `subagent_type: ...`).
 */
export function buildBatch(config: AppConfig, catalog: readonly CatalogEntry[], rawRequest: BatchRequest): BuiltBatch {
  const settings = config.subagent_batches;
  if (!settings.enabled) throw new Error('subagent_batches.enabled: batches are turned off (set it to true in config.yaml)');
  const parsedRequest = BatchRequestSchema.safeParse(rawRequest);
  if (!parsedRequest.success) throw new Error(formatZodIssues(parsedRequest.error.issues, '(request)'));
  const request = parsedRequest.data;
  if (request.items.length > settings.max_items_per_batch) {
    throw new Error(`items: ${request.items.length} items is more than subagent_batches.max_items_per_batch (${settings.max_items_per_batch})`);
  }
  const keyed = request.items.filter((item) => item.key !== undefined).length;
  if (keyed !== 0 && keyed !== request.items.length) {
    const missing = request.items.findIndex((item) => item.key === undefined);
    throw new Error(`items.${missing}.key: give every item a key, or none (they are then numbered)`);
  }
  const subagent = catalog.find((entry) => entry.name === request.subagentType);
  if (subagent === undefined) {
    throw new Error(`subagent_type: "${request.subagentType}" is not an available subagent (available: ${catalog.map((e) => e.name).join(', ') || 'none'})`);
  }
  const maxLiveItems = Math.min(request.maxLiveItems ?? settings.default_max_live_items, settings.max_live_items_per_batch);
  const maxRunningItems = Math.min(request.maxRunningItems ?? settings.default_max_running_items, settings.max_running_items_per_batch, maxLiveItems);
  const create = {
    batchId: request.batchId,
    ownerId: request.ownerId,
    title: request.title,
    subagentType: subagent.name,
    runId: request.runId,
    items: request.items.map((item, i) => ({
      key: item.key ?? positionalKey(i, request.items.length),
      prompt: item.prompt,
      ...(item.acceptance_criteria === undefined ? {} : { acceptance_criteria: item.acceptance_criteria }),
    })),
    limits: {
      maxLiveItems,
      maxRunningItems,
      maxAttempts: settings.max_attempts,
      maxResultChars: settings.max_result_chars,
      resultPreviewMaxChars: settings.result_preview_max_chars,
    },
  };
  // The store validates again; checking here names the field before anything is written.
  const checked = CreateBatchInputSchema.safeParse(create);
  if (!checked.success) throw new Error(formatZodIssues(checked.error.issues, '(request)'));
  return {
    create,
    maxItems: settings.max_items_per_batch,
    workflow: {
      runtime: {
        batchId: request.batchId,
        ownerId: request.ownerId,
        threadId: request.threadId ?? request.batchId,
        subagent,
        parentModel: request.parentModel,
        availableSkills: request.availableSkills,
        maxAttempts: settings.max_attempts,
        pollIntervalSeconds: settings.poll_interval_seconds,
        leaseSeconds: settings.lease_seconds,
      },
      title: create.title,
      itemCount: create.items.length,
      maxLiveItems,
      maxRunningItems,
      ...(request.historyEventLimit === undefined ? {} : { historyEventLimit: request.historyEventLimit }),
    },
  };
}
