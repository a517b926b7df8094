/* eslint-disable @typescript-eslint/no-require-imports -- see below: these requires are the point */
import type * as BatchWorkflows from '../contracts/batch-workflows';
import type * as SubagentProgress from '../contracts/subagent-progress';
import type * as ToolArgs from '../contracts/tool-args';
import type * as WorkflowIo from '../contracts/workflow-io';

/**
 * The zod schemas workflow code validates with, each built on first use and then kept for every
 * workflow this worker thread runs. Module scope of the workflow bundle runs again for every
 * workflow execution, and building the contracts' zod schemas costs tens of milliseconds of CPU:
 * so workflow modules import only zod-free contract files, and this module loads a schema's
 * module when a workflow first validates with it (webpack evaluates a `require` when it runs).
 *
 * The worker preloads this module (`bundleWorkflowCode({ preloadModules })`), which shares it
 * between the workflows of a reusable V8 context: the cache lives in closures, out of reach of
 * the SDK's freezing of shared modules, which zod's lazily defined methods do not survive. Sharing
 * is safe because a schema is a pure validator: no workflow state, no commands; a worker that has
 * not built one yet (a replay) builds the same.
 */
export const inputSchemas = {
  leadRun: builtOnce(() => (require('../contracts/workflow-io') as typeof WorkflowIo).LeadRunInputSchema),
  taskToolArgs: builtOnce(() => (require('../contracts/tool-args') as typeof ToolArgs).TaskToolArgsSchema),
  batch: builtOnce(() => (require('../contracts/batch-workflows') as typeof BatchWorkflows).BatchWorkflowInputSchema),
  cancelBatchRequest: builtOnce(() => (require('../contracts/batch-workflows') as typeof BatchWorkflows).CancelBatchRequestSchema),
  cancelTaskRequest: builtOnce(() => (require('../contracts/workflow-io') as typeof WorkflowIo).CancelTaskRequestSchema),
  extendTaskRequest: builtOnce(() => (require('../contracts/workflow-io') as typeof WorkflowIo).ExtendTaskRequestSchema),
  answerClarificationRequest: builtOnce(() => (require('../contracts/workflow-io') as typeof WorkflowIo).AnswerClarificationRequestSchema),
  subagentProgress: builtOnce(() => (require('../contracts/subagent-progress') as typeof SubagentProgress).SubagentProgressSchema),
  taskProgressReport: builtOnce(() => (require('../contracts/subagent-progress') as typeof SubagentProgress).TaskProgressReportSchema),
};

function builtOnce<T>(build: () => T): () => T {
  let built: { readonly value: T } | undefined;
  return () => (built ??= { value: build() }).value;
}
