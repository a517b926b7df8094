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
  /** A shorter execution cap for this task; never above the subagent's configured timeout. */
  timeout_seconds: z.number({ error: 'must be a whole number of seconds' }).int('must be a whole number of seconds').min(1, 'must be at least 1').optional(),
});
export type TaskToolArgs = z.infer<typeof TaskToolArgsSchema>;

/** Arguments of the lead's `batch_task` tool (SPEC Appendix C.3). Closed schema. */
export const BatchTaskToolArgsSchema = z.strictObject({
  title: requiredText('what the batch is for'),
  items: z
    .array(
      z.strictObject({
        key: requiredText('a unique item key'),
        prompt: requiredText('the complete task of this item'),
        acceptance_criteria: z.array(z.string()).max(100).optional(),
      }),
    )
    .min(1, 'must hold at least one item'),
  subagent_type: requiredText('a subagent name'),
  max_live_items: z.number().int().min(1).optional(),
  max_running_items: z.number().int().min(1).optional(),
});
export type BatchTaskToolArgs = z.infer<typeof BatchTaskToolArgsSchema>;

/** Longest `tool_search` query: keywords or a few exact names, not a document. */
export const TOOL_SEARCH_QUERY_MAX_CHARS = 500;

/** Arguments of `tool_search`. Closed schema. */
export const ToolSearchArgsSchema = z.strictObject({
  query: requiredText('keywords, or select:<name>,<name>').max(TOOL_SEARCH_QUERY_MAX_CHARS, `must be at most ${TOOL_SEARCH_QUERY_MAX_CHARS} characters`),
});
export type ToolSearchArgs = z.infer<typeof ToolSearchArgsSchema>;

export { TASK_TOOL_NAME, BATCH_TASK_TOOL_NAME } from './tool-names';
