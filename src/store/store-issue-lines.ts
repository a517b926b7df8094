import type { z } from 'zod';
import { zodIssueLines } from '../contracts/format-zod-issues';

/**
 * The `field: problem` lines of a store input that failed its schema, `input` for the whole value.
 * Each unknown key gets a line of its own (`tools.extra: unknown field`), so a caller sees exactly
 * which field to drop.
 */
export function storeIssueLines(error: z.ZodError): string[] {
  const perKey = error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys' ? issue.keys.map((key) => ({ path: [...issue.path, key], message: 'unknown field' })) : [issue],
  );
  return zodIssueLines(perKey, 'input');
}
