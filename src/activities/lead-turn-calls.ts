import { AIMessage, mapStoredMessageToChatMessage, type ToolCall } from '@langchain/core/messages';
import { BoundedMap } from '../contracts/bounded-map';
import { messageKeys, type ThreadMessageStore } from '../store';

/** Lead turns whose calls a worker keeps: a few turns' fan-out of calls in flight at once. */
const CACHED_LEAD_TURNS = 64;

/**
 * The tool calls of the lead's stored responses, read and parsed once per response on this worker.
 * Every call a response fans out to (a subagent task, a lead tool call) reads its arguments from
 * that response, which holds all of its calls: reading it per call made a response of n calls cost
 * n message parses. A stored response never changes but for the calls the run dropped
 * (`rewriteLeadTurn`, before any of its calls runs), so a call found once stays as it was. Reads
 * that fail or find nothing are not kept.
 */
export class LeadTurnCalls {
  private readonly turns = new BoundedMap<string, Promise<ReadonlyMap<string, ToolCall> | null>>(CACHED_LEAD_TURNS);

  constructor(private readonly messages: ThreadMessageStore) {}

  /** Call `callId` of turn `turn` of run `runId`; null when the turn or the call is missing. */
  async callOf(threadId: string, runId: string, turn: number, callId: string): Promise<ToolCall | null> {
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

  private async read(threadId: string, key: string): Promise<ReadonlyMap<string, ToolCall> | null> {
    const stored = await this.messages.getMessage(threadId, key);
    if (stored === null) return null;
    const message = mapStoredMessageToChatMessage(stored);
    const calls = new Map<string, ToolCall>();
    if (!AIMessage.isInstance(message)) return calls;
    for (const call of message.tool_calls ?? []) {
      // The first call of an id wins, as a lookup by id found it before.
      if (call.id !== undefined && !calls.has(call.id)) calls.set(call.id, call);
    }
    return calls;
  }
}
