import type { ToolCall } from '@langchain/core/messages';
import { TaskToolArgsSchema } from '../contracts';

/** What a subagent is asked: its prompt and the acceptance criteria that go with it. */
export interface TaskPrompt {
  readonly prompt: string;
  readonly acceptanceCriteria: readonly string[] | undefined;
}

/** The prompt of a lead's `task` call; null when its arguments do not validate (they are data from the model). */
export function taskPromptOf(call: Pick<ToolCall, 'args'>): TaskPrompt | null {
  const args = TaskToolArgsSchema.safeParse(call.args);
  return args.success ? { prompt: args.data.prompt, acceptanceCriteria: args.data.acceptance_criteria } : null;
}
