import { ToolMessage } from '@langchain/core/messages';
import type { ToolOutcome } from '../contracts';
import { renderEvidenceCheck } from '../receipts';
import type { BatchStore, TaskResultStore } from '../store';
import { batchOutcomeMessage } from './batch-outcome-message';
import { formatSubagentResultMessage, makeSubagentAdditionalKwargs } from './task-result-message';

/** `additional_kwargs` key of a task's receipt check (SPEC Appendix C.4), when it has one. */
export const SUBAGENT_EVIDENCE_KWARG = 'subagent_evidence';

/** Appended to failed `task` calls so the model knows the run goes on (SPEC §3.6). */
export const TASK_FAILURE_RECOVERY_HINT = 'Continue with available context, or choose an alternative tool.';

/**
 * The ToolMessage the lead sees for one tool call of its previous turn. Subagent outcomes carry
 * the SPEC §3 text and structured metadata; the full result text is read from the store.
 */
export async function toolOutcomeMessage(outcome: ToolOutcome, results: TaskResultStore, batches?: BatchStore): Promise<ToolMessage> {
  // Any call but a task that ended in error (unknown tool, a lead tool that never answered).
  if (outcome.kind === 'leadTool' || (outcome.kind === 'error' && outcome.toolName !== 'task')) {
    return new ToolMessage({ content: `Error: ${outcome.error}`, tool_call_id: outcome.toolCallId, name: outcome.toolName, status: 'error' });
  }
  if (outcome.kind === 'error') {
    const { content } = formatSubagentResultMessage({ status: 'failed', error: outcome.error });
    const sentence = /[.!?]$/.test(content) ? content : `${content}.`;
    return new ToolMessage({
      content: `${sentence} ${TASK_FAILURE_RECOVERY_HINT}`,
      tool_call_id: outcome.toolCallId,
      name: 'task',
      status: 'error',
      additional_kwargs: makeSubagentAdditionalKwargs('failed', { error: outcome.error }),
    });
  }
  if (outcome.kind === 'batch') {
    if (batches === undefined) throw new Error('A batch_task outcome needs the batch store');
    return batchOutcomeMessage(outcome.toolCallId, outcome.batch, batches);
  }
  const task = outcome.task;
  if (task.status === 'pending' || task.status === 'running') {
    throw new Error(`Task ${task.taskId} is not terminal (${task.status})`);
  }
  const fullResult = task.resultRef ? await results.getResult(task.resultRef) : null;
  const { content, metadataError } = formatSubagentResultMessage({
    status: task.status,
    result: fullResult,
    error: task.error,
    stopReason: task.stopReason,
  });
  const kwargs = makeSubagentAdditionalKwargs(task.status, {
    result: fullResult,
    error: metadataError,
    stopReason: task.stopReason,
    modelName: task.modelName,
    tokenUsage: task.usage,
  });
  // Advisory: the verdicts inform the lead's synthesis but never change the task's status.
  const evidence = task.evidence ?? null;
  if (evidence !== null) kwargs[SUBAGENT_EVIDENCE_KWARG] = evidence;
  // The lead reads the check only when it flags something: a clean report stays as it was, which
  // is what the task tool promises (uncited or unresolved claims are the ones flagged).
  const shown = evidence !== null && task.status === 'completed' && evidence.flagged.length > 0;
  return new ToolMessage({
    content: shown ? `${content}\n\n${renderEvidenceCheck(evidence)}` : content,
    tool_call_id: outcome.toolCallId,
    name: 'task',
    status: task.status === 'completed' ? 'success' : 'error',
    additional_kwargs: kwargs,
  });
}
