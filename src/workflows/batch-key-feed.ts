/** Reads the next page of a batch's item keys after `afterKey`, in key order. */
export type BatchKeyPageLoader = (afterKey: string | null) => Promise<string[]>;

/**
 * The batch's item keys in key order, read a page at a time; the window takes them one by one.
 * Taking a buffered key is synchronous, so the window starts a page's items in one go.
 */
export class BatchKeyFeed {
  #page: string[] = [];
  #exhausted = false;

  /** @param afterKeyValue - the last key taken before (a continued run starts after it) */
  constructor(
    private readonly loadPage: BatchKeyPageLoader,
    private afterKeyValue: string | null,
  ) {}

  /** The last key taken: the cursor a continued run starts after. */
  get afterKey(): string | null {
    return this.afterKeyValue;
  }

  /** True once a page came back empty: every key was taken. */
  get exhausted(): boolean {
    return this.#exhausted;
  }

  /** Whether a key can be taken without reading a page. */
  get buffered(): boolean {
    return this.#page.length > 0;
  }

  /** Reads the next page; an empty one marks the feed exhausted. */
  async refill(): Promise<void> {
    this.#page = await this.loadPage(this.afterKeyValue);
    this.#exhausted = this.#page.length === 0;
  }

  /** The next buffered key, which becomes the cursor. */
  take(): string {
    const key = this.#page.shift();
    if (key === undefined) throw new Error('no buffered batch key (refill first)');
    this.afterKeyValue = key;
    return key;
  }
}
