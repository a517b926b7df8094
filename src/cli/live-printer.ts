import type { RunEvent } from '../contracts';
import { describeEvent } from './event-lines';
import { UsageTally } from './usage-line';

/**
 * Prints run events as lines. On a terminal the last line is a usage status that is rewritten
 * in place as usage arrives; elsewhere (pipes, logs) only plain event lines are written.
 */
export class LivePrinter {
  private readonly tally = new UsageTally();
  private statusShown = false;

  constructor(private readonly out: NodeJS.WriteStream = process.stdout) {}

  event(event: RunEvent): void {
    this.tally.add(event);
    this.clearStatus();
    this.out.write(`${describeEvent(event)}\n`);
    this.showStatus();
  }

  line(text: string): void {
    this.clearStatus();
    this.out.write(`${text}\n`);
  }

  /** Ends live mode: the status line stays as a normal line. */
  finish(): void {
    if (this.statusShown) this.out.write('\n');
    this.statusShown = false;
  }

  private showStatus(): void {
    if (!this.out.isTTY) return;
    this.out.write(this.tally.line());
    this.statusShown = true;
  }

  private clearStatus(): void {
    if (!this.statusShown) return;
    this.out.write('\r\x1b[2K');
    this.statusShown = false;
  }
}
