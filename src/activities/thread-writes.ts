import { mapChatMessagesToStoredMessages, type BaseMessage, type StoredMessage } from '@langchain/core/messages';
import type { ActivityDeps } from './activity-deps';

/** `message` as the thread store keeps it. @throws Error when it cannot be serialized */
function storedMessage(key: string, message: BaseMessage): StoredMessage {
  const [stored] = mapChatMessagesToStoredMessages([message]);
  if (stored === undefined) throw new Error(`Could not serialize the ${message.getType()} message ${key}`);
  return stored;
}

/**
 * Writes one message to a thread under a key the workflow chose; the first write wins, so a retried
 * activity or a late writer never changes what the thread already says. Returns whether it wrote.
 */
export async function putThreadMessage(deps: ActivityDeps, threadId: string, runId: string, key: string, message: BaseMessage): Promise<boolean> {
  const { inserted } = await deps.stores.messages.putMessageIfAbsent({ threadId, runId, key, message: storedMessage(key, message) });
  return inserted;
}

/**
 * Writes messages to a thread under the keys the workflow chose, in one transaction and in the
 * order given; the first write of each key wins, as with {@link putThreadMessage}.
 */
export async function putThreadMessages(deps: ActivityDeps, threadId: string, runId: string, writes: readonly { key: string; message: BaseMessage }[]): Promise<void> {
  await deps.stores.messages.putMessagesIfAbsent(writes.map(({ key, message }) => ({ threadId, runId, key, message: storedMessage(key, message) })));
}
