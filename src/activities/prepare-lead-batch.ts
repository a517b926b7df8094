import { AIMessage, mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { BatchTaskToolArgsSchema, formatZodIssues, type BatchWorkflowInput, type PrepareLeadBatchInput } from '../contracts';
import { buildBatch } from '../registry';
import { isBatchStoreError, messageKeys } from '../store';
import type { ActivityDeps } from './activity-deps';
import { parseActivityInput } from './parse-activity-input';
import { sha256Hex } from './sha256-hex';

/** What `prepareLeadBatch` decided: the batch to start, or the error the lead reads instead. */
export type PreparedLeadBatch = { readonly ok: true; readonly batch: BatchWorkflowInput } | { readonly ok: false; readonly error: string };

/**
 * A batch id derived from the call, so a retried activity stores the same batch: from the thread,
 * run and the id the run gave the call; runs recorded before call ids, from the run and provider id.
 */
export function leadBatchId(input: Pick<PrepareLeadBatchInput, 'threadId' | 'runId' | 'toolCallId' | 'callId'>): string {
  const key = input.callId === undefined ? `${input.runId}\n${input.toolCallId}` : `${input.threadId}\n${input.runId}\n${input.callId}`;
  return `batch_${sha256Hex(key).slice(0, 32)}`;
}

/**
 * Builds the `prepareLeadBatch` activity: reads a `batch_task` call from the stored lead turn,
 * validates it against the config and the run's catalog, and stores the batch and its items (all
 * or nothing). Bad arguments come back as an error for the lead, naming the field.
 */
export function createPrepareLeadBatch(deps: ActivityDeps) {
  return async function prepareLeadBatch(raw: PrepareLeadBatchInput): Promise<PreparedLeadBatch> {
    const input = parseActivityInput('prepareLeadBatch', raw);
    const stored = await deps.stores.messages.getMessage(input.threadId, messageKeys.ai(input.runId, input.turn));
    const message = stored ? mapStoredMessageToChatMessage(stored) : null;
    const call = (message && AIMessage.isInstance(message) ? (message.tool_calls ?? []) : []).find((c) => c.id === input.toolCallId);
    if (call === undefined) return { ok: false, error: `Tool call ${input.toolCallId} not found in turn ${input.turn}` };
    const args = BatchTaskToolArgsSchema.safeParse(call.args);
    if (!args.success) {
      return { ok: false, error: `Invalid batch_task arguments: ${formatZodIssues(args.error.issues, '(args)')}` };
    }
    try {
      const built = buildBatch(deps.config, input.catalog, {
        batchId: leadBatchId(input),
        ownerId: input.userId,
        title: args.data.title,
        subagentType: args.data.subagent_type,
        items: args.data.items,
        threadId: input.threadId,
        runId: input.runId,
        parentModel: input.modelName,
        availableSkills: input.availableSkills,
        maxLiveItems: args.data.max_live_items,
        maxRunningItems: args.data.max_running_items,
      });
      await deps.stores.batches.createBatch(built.create, { maxItems: built.maxItems });
      return { ok: true, batch: built.workflow };
    } catch (err) {
      if (err instanceof Error && (err.constructor === Error || isBatchStoreError(err))) return { ok: false, error: err.message };
      throw err;
    }
  };
}
