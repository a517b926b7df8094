import { z } from 'zod';
import { BATCH_TASK_TOOL_NAME } from '../contracts';
import { buildBatchTaskToolDescription } from './batch-task-tool-description';
import type { FunctionToolSpec } from './function-tool-spec';
import { toolParameters } from './tool-parameters';
import { ACCEPTANCE_CRITERIA_DESCRIPTION } from './task-tool-description';

/** The lead's `batch_task` tool as the model sees it; the workflow executes it (a child batch workflow). */
export function batchTaskToolSpec(options: { subagentNames: readonly string[]; maxItems: number }): FunctionToolSpec {
  const parameters = () =>
    z.object({
      title: z.string().describe('What the batch is for, in a few words.'),
      items: z
        .array(
          z.object({
            key: z.string().describe('Unique, short key of the item (results come back in key order).'),
            prompt: z.string().describe('The complete, self-contained task of this item.'),
            acceptance_criteria: z.array(z.string()).optional().describe(ACCEPTANCE_CRITERIA_DESCRIPTION),
          }),
        )
        .describe(`The items, 1 to ${options.maxItems}.`),
      subagent_type: z.string().describe(`The subagent every item runs on. One of: ${options.subagentNames.join(', ')}.`),
      max_live_items: z.number().int().optional().describe('Items in progress at once (optional).'),
      max_running_items: z.number().int().optional().describe('Items executing a subagent at once (optional).'),
    });
  return {
    type: 'function',
    function: {
      name: BATCH_TASK_TOOL_NAME,
      description: buildBatchTaskToolDescription({ maxItems: options.maxItems }),
      parameters: toolParameters(`${BATCH_TASK_TOOL_NAME}\n${options.maxItems}\n${options.subagentNames.join('\n')}`, parameters),
    },
  };
}
