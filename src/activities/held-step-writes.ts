import { asReadBack, type ThreadMessageRecord } from '../store';
import type { ActivityDeps } from './activity-deps';
import { storedMessage, type KeyedMessage } from './thread-writes';
import { WRITE_BEHIND_MS } from './write-behind';

/**
 * What a lead model step writes before its answer: the run's input, the tool results of the
 * previous response, and the end rows of the outcomes it was handed. Held back for
 * {@link WRITE_BEHIND_MS}: the answer of a quick model call takes them along (one commit on SQLite
 * instead of two); a longer call finds them written. The messages and the answer go in one
 * `putMessagesIfAbsent`, in that order, so the transcript keeps its order on every backend.
 */
export class HeldStepWrites {
  private readonly records: readonly ThreadMessageRecord[];
  private written: Promise<void> | null = null;
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly deps: ActivityDeps,
    messages: readonly KeyedMessage[],
    scope: { readonly threadId: string; readonly runId: string },
    private readonly writeOthers: () => Promise<void>,
  ) {
    this.records = messages.map(({ key, message }) => ({ threadId: scope.threadId, runId: scope.runId, key, message: storedMessage(key, message) }));
    // Its failure is the step's when it ends: `flush` and `putAnswer` hand it on.
    this.timer = setTimeout(() => void this.flush().catch(() => undefined), WRITE_BEHIND_MS);
  }

  /**
   * The transcript as a reader gets it once the held messages are stored: those stored already
   * keep their place and text (the first write of a key wins), the others follow in order.
   */
  transcript(stored: readonly ThreadMessageRecord[]): ThreadMessageRecord[] {
    const keys = new Set(stored.map((r) => r.key));
    const added: ThreadMessageRecord[] = [];
    for (const record of this.records) {
      if (keys.has(record.key)) continue;
      keys.add(record.key);
      added.push({ ...record, message: asReadBack(record.message) });
    }
    return [...stored, ...added];
  }

  /** Writes what is held, once: when the step ends without storing an answer, or when the hold is over. */
  flush(): Promise<void> {
    clearTimeout(this.timer);
    this.written ??= this.write([]).then(() => undefined);
    return this.written;
  }

  /** Stores the answer (the first write of its key wins): in one write with the held messages, or after them. */
  async putAnswer(answer: ThreadMessageRecord): Promise<{ inserted: boolean }> {
    if (this.written !== null) {
      await this.written;
      return this.deps.stores.messages.putMessageIfAbsent(answer);
    }
    clearTimeout(this.timer);
    const stored = this.write([answer]);
    this.written = stored.then(() => undefined);
    const inserted = (await stored).at(-1);
    if (inserted === undefined) throw new Error(`The thread store answered no write for ${answer.key}`);
    return inserted;
  }

  /** The held writes and `after` (messages that follow the held ones), asked for at once; one result per message. */
  private async write(after: readonly ThreadMessageRecord[]): Promise<{ inserted: boolean }[]> {
    const [, inserted] = await Promise.all([this.writeOthers(), this.deps.stores.messages.putMessagesIfAbsent([...this.records, ...after])]);
    return inserted;
  }
}
