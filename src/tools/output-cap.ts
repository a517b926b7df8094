/**
 * Bounded collection of streamed text: keeps at most `limit` chars of the head and of the tail, so
 * a command printing gigabytes costs O(limit) memory.
 */
export class HeadTailBuffer {
  private head = '';
  private tail = '';
  private total = 0;

  constructor(private readonly limit: number) {}

  /** Number of chars pushed so far. */
  get totalChars(): number {
    return this.total;
  }

  /** Appends a chunk as it arrives. */
  push(chunk: string): void {
    this.total += chunk.length;
    if (this.head.length < this.limit) {
      const room = this.limit - this.head.length;
      this.head += chunk.slice(0, room);
    }
    this.tail = (this.tail + chunk).slice(-this.limit);
  }

  /**
   * The collected text in at most `maxChars` chars (`maxChars <= limit`): everything when it fits,
   * otherwise head + truncation marker + tail. `map` runs on each kept part before joining, so a
   * replacement cannot straddle the marker.
   */
  render(maxChars: number, map: (part: string) => string = (s) => s): string {
    if (this.total <= maxChars) return map(this.head);
    const marker = (cut: number): string => `\n\n... [${cut} chars truncated] ...\n\n`;
    // Sized with the total's digit count, which bounds the real cut count.
    const budget = Math.max(0, maxChars - marker(this.total).length);
    const headChars = Math.ceil(budget / 2);
    const tailChars = budget - headChars;
    const cut = this.total - headChars - tailChars;
    const tail = tailChars > 0 ? this.tail.slice(-tailChars) : '';
    return map(this.head.slice(0, headChars)) + marker(cut) + map(tail);
  }
}

/** Caps `text` at `maxChars`, keeping head and tail around a marker that says how much was cut. */
export function capHeadTail(text: string, maxChars: number): string {
  const buf = new HeadTailBuffer(maxChars);
  buf.push(text);
  return buf.render(maxChars);
}
