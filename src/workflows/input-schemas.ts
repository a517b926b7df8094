/* eslint-disable @typescript-eslint/no-require-imports -- see below: these requires are the point */
import type * as BatchWorkflows from '../contracts/batch-workflows';
import type * as SubagentProgress from '../contracts/subagent-progress';
import type * as ToolArgs from '../contracts/tool-args';
import type * as WorkflowIo from '../contracts/workflow-io';

/**
 * The zod schemas workflow code validates with, loaded on first use. Module scope of the workflow
 * bundle runs again for every workflow execution, and building the contracts' zod schemas costs
 * tens of milliseconds of CPU: a batch item would pay it thousands of times for nothing. So
 * workflow modules import only zod-free contract files, and a workflow that validates something
 * loads that schema's module when it does (webpack evaluates a `require` when it runs).
 */
export const inputSchemas = {
  leadRun: () => (require('../contracts/workflow-io') as typeof WorkflowIo).LeadRunInputSchema,
  taskToolArgs: () => (require('../contracts/tool-args') as typeof ToolArgs).TaskToolArgsSchema,
  batch: () => (require('../contracts/batch-workflows') as typeof BatchWorkflows).BatchWorkflowInputSchema,
  cancelBatchRequest: () => (require('../contracts/batch-workflows') as typeof BatchWorkflows).CancelBatchRequestSchema,
  cancelTaskRequest: () => (require('../contracts/workflow-io') as typeof WorkflowIo).CancelTaskRequestSchema,
  extendTaskRequest: () => (require('../contracts/workflow-io') as typeof WorkflowIo).ExtendTaskRequestSchema,
  answerClarificationRequest: () => (require('../contracts/workflow-io') as typeof WorkflowIo).AnswerClarificationRequestSchema,
  subagentProgress: () => (require('../contracts/subagent-progress') as typeof SubagentProgress).SubagentProgressSchema,
  taskProgressReport: () => (require('../contracts/subagent-progress') as typeof SubagentProgress).TaskProgressReportSchema,
};
