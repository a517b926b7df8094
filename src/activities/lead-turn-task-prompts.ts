import { AIMessage, mapStoredMessageToChatMessage } from '@langchain/core/messages';
import { TaskToolArgsSchema } from '../contracts';
import { BoundedMap } from '../middleware/token-budget';
import { messageKeys, type ThreadMessageStore } from '../store';

/** What a subagent is asked: the `task` call's prompt and its acceptance criteria. */
export interface TaskPrompt {
  readonly prompt: string;
  readonly acceptanceCriteria: readonly string[] | undefined;
}

/** Lead turns whose parsed calls a worker keeps: a few turns' fan-out of tasks in flight at once. */
const CACHED_LEAD_TURNS = 64;

/**
 * The task prompts of the lead's stored responses, read and parsed once per response on this
 * worker. Every task of a response reads the same message, which holds all of that response's
 * calls: parsing it per task made a response of n tasks cost n² call parses. A stored response
 * never changes but for the calls the run dropped (`rewriteLeadTurn`, before any of its tasks
 * runs), so a call found once stays as it was. Reads that fail or find nothing are not kept.
 */
export class LeadTurnTaskPrompts {
  private readonly turns = new BoundedMap<string, Promise<ReadonlyMap<string, TaskPrompt | null> | null>>(CACHED_LEAD_TURNS);

  constructor(private readonly messages: ThreadMessageStore) {}

  /** The prompt of call `callId` in turn `turn` of run `runId`; null when the turn or the call is missing or its arguments do not validate. */
  async promptOf(threadId: string, runId: string, turn: number, callId: string): Promise<TaskPrompt | null> {
    const key = messageKeys.ai(runId, turn);
    const cacheKey = JSON.stringify([threadId, key]);
    let calls = this.turns.get(cacheKey);
    if (calls === undefined) {
      calls = this.read(threadId, key);
      this.turns.set(cacheKey, calls);
      // Not kept: a failed read (the store may be back for the next try) or a missing message.
      const reading = calls;
      const forget = (): void => {
        if (this.turns.get(cacheKey) === reading) this.turns.delete(cacheKey);
      };
      void reading.then((read) => {
        if (read === null) forget();
      }, forget);
    }
    return (await calls)?.get(callId) ?? null;
  }

  private async read(threadId: string, key: string): Promise<ReadonlyMap<string, TaskPrompt | null> | null> {
    const stored = await this.messages.getMessage(threadId, key);
    if (stored === null) return null;
    const message = mapStoredMessageToChatMessage(stored);
    const prompts = new Map<string, TaskPrompt | null>();
    if (!AIMessage.isInstance(message)) return prompts;
    for (const call of message.tool_calls ?? []) {
      // The first call of an id wins, as a lookup by id found it before.
      if (call.id === undefined || prompts.has(call.id)) continue;
      const args = TaskToolArgsSchema.safeParse(call.args);
      prompts.set(call.id, args.success ? { prompt: args.data.prompt, acceptanceCriteria: args.data.acceptance_criteria } : null);
    }
    return prompts;
  }
}
