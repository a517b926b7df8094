import { z } from 'zod';
import { TASK_TOOL_NAME } from '../contracts';
import type { FunctionToolSpec } from './function-tool-spec';
import { ACCEPTANCE_CRITERIA_DESCRIPTION, buildTaskToolDescription } from './task-tool-description';
import { toolParameters } from './tool-parameters';

/**
 * The lead's `task` tool as the model sees it. The workflow, not a tool function, executes it,
 * so the lead binds a spec rather than a runnable tool.
 */
export function taskToolSpec(options: { subagentNames: readonly string[]; receiptsEnabled: boolean }): FunctionToolSpec {
  const parameters = () =>
    z.object({
      description: z.string().describe('A short (3-5 words) description of the task. ALWAYS FIRST.'),
      prompt: z.string().describe('The complete, self-contained task for the subagent, with the context it needs. ALWAYS SECOND.'),
      subagent_type: z
        .string()
        .describe(`The subagent to use. ALWAYS THIRD. One of: ${options.subagentNames.join(', ')}.`),
      acceptance_criteria: z.array(z.string()).optional().describe(ACCEPTANCE_CRITERIA_DESCRIPTION),
      timeout_seconds: z
        .number()
        .int()
        .min(1)
        .optional()
        .describe("Optional execution cap for this task in seconds; it can shorten the subagent's configured timeout, never extend it."),
    });
  return {
    type: 'function',
    function: {
      name: TASK_TOOL_NAME,
      description: buildTaskToolDescription({
        bashAvailable: options.subagentNames.includes('bash'),
        receiptsEnabled: options.receiptsEnabled,
      }),
      parameters: toolParameters(`${TASK_TOOL_NAME}\n${options.subagentNames.join('\n')}`, parameters),
    },
  };
}
