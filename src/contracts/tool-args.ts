import { z } from 'zod';

/** Arguments of the lead's `task` tool. Closed schema: unknown keys are rejected. */
export const TaskToolArgsSchema = z
  .strictObject({
    description: z.string().trim().min(1, 'must be a non-empty string (3-5 words)'),
    prompt: z.string().trim().min(1, 'must be a non-empty string'),
    subagent_type: z.string().trim().min(1, 'must name a subagent'),
    acceptance_criteria: z.array(z.string()).max(100).optional(),
  });
export type TaskToolArgs = z.infer<typeof TaskToolArgsSchema>;

/** Name of the lead's delegation tool. */
export const TASK_TOOL_NAME = 'task';
