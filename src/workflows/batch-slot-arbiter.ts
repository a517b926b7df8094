import { slotsToGrant } from './batch-window';

/**
 * The running slots of one batch run (pure; the batch workflow signals the grants). Live items ask
 * for a slot before they call a model and give it back when their try ends; at most `maxRunning`
 * hold one, and the others wait in request order. A new item may start holding a free slot.
 */
export class BatchSlotArbiter {
  readonly #holders = new Set<string>();
  readonly #waiting: string[] = [];

  constructor(private readonly maxRunning: number) {}

  /** Items holding a slot now. */
  get running(): number {
    return this.#holders.size;
  }

  /** Slots neither held nor owed to a waiting item: what new items may be started holding. */
  get free(): number {
    return Math.max(0, this.maxRunning - this.#holders.size - this.#waiting.length);
  }

  /**
   * `key` holds a slot from its start on, without asking (the batch passes it with the start).
   * @throws Error when no slot is {@link free}: waiting items come first
   */
  hold(key: string): void {
    if (this.free < 1) throw new Error(`no free running slot for ${key}`);
    this.#holders.add(key);
  }

  /** `key` asks for a slot; asking again while holding or waiting changes nothing. */
  request(key: string): void {
    if (!this.#holders.has(key) && !this.#waiting.includes(key)) this.#waiting.push(key);
  }

  /** `key` gives its slot back (its try ended, or the grant never reached it). */
  release(key: string): void {
    this.#holders.delete(key);
  }

  /** `key`'s workflow ended: its slot and its place in the queue are freed. */
  ended(key: string): void {
    this.#holders.delete(key);
    const queued = this.#waiting.indexOf(key);
    if (queued >= 0) this.#waiting.splice(queued, 1);
  }

  /** The keys that get a slot now, in request order; they hold it from now on. */
  grant(): string[] {
    const granted = slotsToGrant(this.#waiting, this.#holders.size, this.maxRunning);
    this.#waiting.splice(0, granted.length);
    for (const key of granted) this.#holders.add(key);
    return granted;
  }
}
