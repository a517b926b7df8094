import { mapChatMessagesToStoredMessages, type BaseMessage } from '@langchain/core/messages';
import type { ActivityDeps } from './activity-deps';

/**
 * Writes one message to a thread under a key the workflow chose; the first write wins, so a retried
 * activity or a late writer never changes what the thread already says. Returns whether it wrote.
 */
export async function putThreadMessage(deps: ActivityDeps, threadId: string, runId: string, key: string, message: BaseMessage): Promise<boolean> {
  const [stored] = mapChatMessagesToStoredMessages([message]);
  if (stored === undefined) throw new Error(`Could not serialize the ${message.getType()} message ${key}`);
  const { inserted } = await deps.stores.messages.putMessageIfAbsent({ threadId, runId, key, message: stored });
  return inserted;
}

/**
 * Writes messages to a thread under the keys the workflow chose, in one transaction and in the
 * order given; the first write of each key wins, as with {@link putThreadMessage}.
 */
export async function putThreadMessages(deps: ActivityDeps, threadId: string, runId: string, writes: readonly { key: string; message: BaseMessage }[]): Promise<void> {
  const records = writes.map(({ key, message }) => {
    const [stored] = mapChatMessagesToStoredMessages([message]);
    if (stored === undefined) throw new Error(`Could not serialize the ${message.getType()} message ${key}`);
    return { threadId, runId, key, message: stored };
  });
  await deps.stores.messages.putMessagesIfAbsent(records);
}
