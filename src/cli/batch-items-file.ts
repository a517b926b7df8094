import type { z } from 'zod';
import { BatchRequestItemSchema, type StartBatchRequest } from '../client';
import { CliExit, EXIT_USAGE } from './load-cli-config';

/** One item of a batch as `startBatch` takes it. */
export type BatchFileItem = StartBatchRequest['items'][number];

/** The items of a JSONL file, and the 1-based line each came from (`lines[i]` is item i's line). */
export interface BatchItemsFile {
  readonly items: readonly BatchFileItem[];
  readonly lines: readonly number[];
}

function issueText(issue: z.core.$ZodIssue): string {
  const message = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
  return issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ${message}` : message;
}

/**
 * Parses a batch's JSONL file: one item object per line, blank lines skipped. Only the shape of each
 * line is checked here (JSON, an object, the item fields and their types); `startBatch` checks the
 * rest (blank prompts, duplicate keys, ...) and {@link pointAtLines} maps its messages to lines.
 * @throws CliExit (usage) `FILE:LINE: problem`, one line per problem, before anything is started.
 */
export function parseBatchItemsFile(text: string, file: string): BatchItemsFile {
  const items: BatchFileItem[] = [];
  const lines: number[] = [];
  const problems: string[] = [];
  // A byte order mark is not part of the first line's JSON.
  text.replace(/^\uFEFF/, '').split('\n').forEach((raw, i) => {
    if (raw.trim() === '') return;
    const where = `${file}:${i + 1}`;
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch (err) {
      problems.push(`${where}: not valid JSON (${err instanceof Error ? err.message : String(err)})`);
      return;
    }
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`${where}: expected a JSON object like {"prompt": "..."}`);
      return;
    }
    const parsed = BatchRequestItemSchema.safeParse(value);
    if (!parsed.success) {
      problems.push(...parsed.error.issues.map((issue) => `${where}: ${issueText(issue)}`));
      return;
    }
    items.push(parsed.data);
    lines.push(i + 1);
  });
  if (problems.length > 0) throw new CliExit(`Invalid batch file, nothing was started:\n${problems.join('\n')}`, EXIT_USAGE);
  if (items.length === 0) throw new CliExit(`${file}: no items (one JSON object per line, like {"prompt": "..."})`, EXIT_USAGE);
  return { items, lines };
}

// `startBatch` names request fields; on the command line they are flags.
const FLAG_OF: ReadonlyMap<string, string> = new Map([
  ['title', '--title'],
  ['subagentType', '--subagent'],
  ['subagent_type', '--subagent'],
  ['ownerId', '--user'],
  ['model', '--model'],
]);

/**
 * Rewrites a `startBatch` error message (`items.2.prompt: must not be empty; title: ...`) for the
 * command line: one line per problem, item paths as `FILE:LINE: field`, request fields as flags.
 */
export function pointAtLines(message: string, file: string, lines: readonly number[]): string[] {
  const lineOf = (index: string) => lines[Number(index)] ?? Number(index) + 1;
  // References inside a message (`duplicate key "k" (first at items.0)`).
  const inline = (text: string) => text.replace(/\bitems\.(\d+)\b/g, (_m, index: string) => `line ${lineOf(index)}`);
  return message.split(/; (?=[\w.]+: )/).map((problem) => {
    const item = /^items\.(\d+)(?:\.([\w.]+))?: ([\s\S]*)$/.exec(problem);
    if (item) return `${file}:${lineOf(item[1] ?? '')}: ${item[2] ? `${item[2]}: ` : ''}${inline(item[3] ?? '')}`;
    const field = /^(\w+): ([\s\S]*)$/.exec(problem);
    const flag = field ? FLAG_OF.get(field[1] ?? '') : undefined;
    return flag ? `${flag}: ${inline(field?.[2] ?? '')}` : inline(problem);
  });
}
