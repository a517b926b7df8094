import type { BaseMessage } from '@langchain/core/messages';

/**
 * Streams an agent run and aborts it, as a lost worker would stop, once `stopWhen` holds for a
 * chunk's messages (or lets it run to its end); only the abort's own error is swallowed.
 * @param start - starts the stream with the given abort signal
 */
export async function streamUntil(
  start: (signal: AbortSignal) => Promise<AsyncIterable<{ messages: readonly BaseMessage[] }>>,
  stopWhen: (messages: readonly BaseMessage[]) => boolean,
): Promise<void> {
  const stop = new AbortController();
  try {
    for await (const chunk of await start(stop.signal)) if (stopWhen(chunk.messages)) stop.abort();
  } catch (err) {
    if (!stop.signal.aborted) throw err;
  }
}

/** A `stopWhen` that holds once exactly `n` tool results are in; null never holds (run to the end). */
export function afterToolResults(n: number | null): (messages: readonly BaseMessage[]) => boolean {
  return (messages) => messages.filter((m) => m.type === 'tool').length === n;
}
