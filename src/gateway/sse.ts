import type { ServerResponse } from 'node:http';

/** One Server-Sent Events message. */
export interface SseMessage {
  /** Becomes the client's `Last-Event-ID`; omitted for messages that are not resumption points. */
  readonly id?: string;
  readonly event: string;
  readonly data: unknown;
}

/**
 * Formats one SSE message. `data` is JSON on a single line (JSON.stringify escapes newlines), and
 * line breaks are removed from `id` and `event` so no field can inject another one.
 */
export function formatSse(message: SseMessage): string {
  const clean = (s: string) => s.replace(/[\r\n]/g, ' ');
  const id = message.id === undefined ? '' : `id: ${clean(message.id)}\n`;
  return `${id}event: ${clean(message.event)}\ndata: ${JSON.stringify(message.data)}\n\n`;
}

/**
 * An open SSE response. Writes wait for `drain` when the socket buffer is full, so a slow client
 * slows the store poller down instead of growing memory; every write resolves (without writing)
 * once the connection is gone.
 */
export class SseWriter {
  private closed = false;

  constructor(private readonly res: ServerResponse) {
    res.once('close', () => (this.closed = true));
  }

  /** Sends the response headers now, so the client sees the stream open before the first row. */
  open(): void {
    this.res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache, no-transform',
      connection: 'keep-alive',
      // Reverse proxies (nginx) would otherwise buffer the stream.
      'x-accel-buffering': 'no',
    });
    this.res.flushHeaders();
  }

  /** Sends one message. */
  send(message: SseMessage): Promise<void> {
    return this.write(formatSse(message));
  }

  /** Sends a comment line (ignored by clients; keeps proxies and idle timeouts from closing the stream). */
  comment(text: string): Promise<void> {
    return this.write(`: ${text.replace(/[\r\n]/g, ' ')}\n\n`);
  }

  /** Ends the response (no-op when the client already left). */
  end(): void {
    if (!this.closed) this.res.end();
  }

  private write(chunk: string): Promise<void> {
    if (this.closed || this.res.writableEnded) return Promise.resolve();
    if (this.res.write(chunk)) return Promise.resolve();
    return new Promise((resolve) => {
      const done = () => {
        this.res.off('drain', done);
        this.res.off('close', done);
        resolve();
      };
      this.res.once('drain', done);
      this.res.once('close', done);
    });
  }
}
