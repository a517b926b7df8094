import type { StoredMessage } from '@langchain/core/messages';

/** One message of a thread transcript, under a key the workflow chose (idempotent writes). */
export interface ThreadMessageRecord {
  readonly threadId: string;
  readonly runId: string;
  /** Unique within the thread, e.g. `run:<runId>:ai:<turn>`. */
  readonly key: string;
  readonly message: StoredMessage;
}

/**
 * Thread transcripts: the messages the lead model sees. Transcripts live here, not in workflow
 * history; activities read and write them under keys derived from workflow state.
 */
export interface ThreadMessageStore {
  /** Inserts unless the key exists (first write wins, so a retried activity cannot change history). */
  putMessageIfAbsent(record: ThreadMessageRecord): Promise<{ inserted: boolean }>;
  /**
   * {@link putMessageIfAbsent} of each record, in one transaction and in the order given (the
   * transcript's write order); a key repeated in `records` keeps its first. One result per record.
   * A burst of tool outcomes writes its messages with one commit instead of one each.
   */
  putMessagesIfAbsent(records: readonly ThreadMessageRecord[]): Promise<{ inserted: boolean }[]>;
  /** Replaces the message under an existing key (used when the workflow rewrites a turn). */
  replaceMessage(threadId: string, key: string, message: StoredMessage): Promise<void>;
  getMessage(threadId: string, key: string): Promise<StoredMessage | null>;
  /** The whole transcript of a thread in write order. */
  listMessages(threadId: string): Promise<ThreadMessageRecord[]>;
}

/** Store keys of lead-run messages. */
export const messageKeys = {
  input: (runId: string): string => `run:${runId}:input`,
  ai: (runId: string, turn: number): string => `run:${runId}:ai:${turn}`,
  tool: (runId: string, toolCallId: string): string => `run:${runId}:tool:${toolCallId}`,
  /** The user's answer to the run's `ask_clarification` call `callId`. */
  answer: (runId: string, callId: string): string => `run:${runId}:answer:${callId}`,
} as const;
