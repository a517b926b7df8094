/** One parsed Server-Sent Events block: a message, or a comment when `comment` is set. */
export interface SseBlock {
  readonly id?: string;
  readonly event?: string;
  readonly data?: string;
  readonly comment?: string;
}

/** Parses complete SSE blocks from `buffer`; returns them and the unfinished rest. */
export function parseSseBlocks(buffer: string): { blocks: SseBlock[]; rest: string } {
  const parts = buffer.split('\n\n');
  const rest = parts.pop() ?? '';
  const blocks = parts.map((part) => {
    const block: { id?: string; event?: string; data?: string; comment?: string } = {};
    for (const line of part.split('\n')) {
      if (line.startsWith(':')) block.comment = line.slice(1).trim();
      else if (line.startsWith('id: ')) block.id = line.slice(4);
      else if (line.startsWith('event: ')) block.event = line.slice(7);
      else if (line.startsWith('data: ')) block.data = (block.data === undefined ? '' : `${block.data}\n`) + line.slice(6);
    }
    return block;
  });
  return { blocks, rest };
}

/** What {@link readSse} saw. */
export interface SseRead {
  readonly status: number;
  readonly contentType: string | null;
  readonly blocks: SseBlock[];
  /** True when the server ended the response; false when we disconnected. */
  readonly ended: boolean;
}

/**
 * Opens an SSE stream and reads blocks until `stop(blocks)` is true (then disconnects) or the
 * server ends the response. A non-200 response is returned with its body as one data block.
 */
export async function readSse(
  url: string,
  options: { headers?: Record<string, string>; stop?: (blocks: readonly SseBlock[]) => boolean; timeoutMs?: number } = {},
): Promise<SseRead> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 60_000);
  try {
    const response = await fetch(url, { headers: options.headers ?? {}, signal: controller.signal });
    const contentType = response.headers.get('content-type');
    if (response.status !== 200 || response.body === null) {
      return { status: response.status, contentType, blocks: [{ data: await response.text() }], ended: true };
    }
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    const blocks: SseBlock[] = [];
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { status: 200, contentType, blocks, ended: true };
      const parsed = parseSseBlocks(buffer + decoder.decode(value, { stream: true }));
      buffer = parsed.rest;
      blocks.push(...parsed.blocks);
      if (options.stop?.(blocks)) {
        controller.abort();
        return { status: 200, contentType, blocks, ended: false };
      }
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Only the message blocks (no heartbeat comments). */
export function messages(blocks: readonly SseBlock[]): SseBlock[] {
  return blocks.filter((b) => b.comment === undefined);
}
