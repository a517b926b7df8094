import { Readable } from 'node:stream';

/**
 * `records` as newline-delimited JSON (one record per line), pulled one record at a time as the
 * consumer drains the stream, so a large export is never held in memory. Destroying the stream
 * (the client went away) ends the iteration: the source's `finally` runs and nothing more is read.
 */
export function jsonLines(records: AsyncIterable<unknown>): Readable {
  return Readable.from(lines(records));
}

async function* lines(records: AsyncIterable<unknown>): AsyncGenerator<string> {
  for await (const record of records) yield `${JSON.stringify(record)}\n`;
}
