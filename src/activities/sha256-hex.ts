import { createHash } from 'node:crypto';

/** Lowercase hex sha256 of a string's UTF-8 bytes (the digest of results, contents and ledger entries). */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}
