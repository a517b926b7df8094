import { z } from 'zod';

const requiredText = (what: string) =>
  z
    .string({ error: (issue) => (issue.input === undefined ? 'is required' : `must be a string (${what})`) })
    .trim()
    .min(1, `must not be empty (${what})`);

/** Arguments of the lead's `task` tool. Closed schema: unknown keys are rejected. */
export const TaskToolArgsSchema = z.strictObject({
  description: requiredText('3-5 words'),
  prompt: requiredText('the complete task'),
  subagent_type: requiredText('a subagent name'),
  acceptance_criteria: z.array(z.string()).max(100).optional(),
});
export type TaskToolArgs = z.infer<typeof TaskToolArgsSchema>;

export { TASK_TOOL_NAME } from './tool-names';
