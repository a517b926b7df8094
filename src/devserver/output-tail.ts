/**
 * Splits a child process's output into lines, forwards each to a logger, and keeps the last few so a
 * start failure can say why the server died.
 */
export class OutputTail {
  private readonly lines: string[] = [];
  private partial = '';
  private forwarding = true;

  constructor(
    private readonly maxLines: number,
    private readonly log: (line: string) => void,
  ) {}

  /** Feeds a chunk of output; complete lines are logged and remembered. */
  push(chunk: Buffer | string): void {
    const parts = (this.partial + chunk.toString()).split(/\r?\n/);
    this.partial = parts.pop() ?? '';
    parts.forEach((line) => this.add(line));
  }

  /** Flushes an unterminated last line (call once the stream ended). */
  end(): void {
    if (this.partial !== '') this.add(this.partial);
    this.partial = '';
  }

  /** Keeps remembering lines but stops logging them (shutdown chatter is noise). */
  stopForwarding(): void {
    this.forwarding = false;
  }

  /** The remembered lines, newline-joined, or a placeholder when the process printed nothing. */
  text(): string {
    const lines = this.partial === '' ? this.lines : [...this.lines, this.partial];
    return lines.length > 0 ? lines.join('\n') : '(no output)';
  }

  private add(line: string): void {
    if (line.trim() === '') return;
    if (this.forwarding) this.log(line);
    this.lines.push(line);
    if (this.lines.length > this.maxLines) this.lines.shift();
  }
}
