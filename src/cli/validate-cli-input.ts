import { parse } from 'yaml';
import type { z } from 'zod';
import { zodIssueLines } from '../contracts';
import { CliExit, EXIT_USAGE } from './load-cli-config';

/** Parses a YAML or JSON definition file given on the command line. @throws CliExit naming the file. */
export function parseDefinitionFile(text: string, file: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = parse(text);
  } catch (err) {
    throw new CliExit(`${file}: not valid YAML or JSON (${err instanceof Error ? err.message : String(err)})`, EXIT_USAGE);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw new CliExit(`${file}: expected a mapping of fields`, EXIT_USAGE);
  return value as Record<string, unknown>;
}

/**
 * Validates command-line input with a contract schema before anything is stored.
 * @throws CliExit with one `field: problem` line per issue.
 */
export function validateCliInput<S extends z.ZodType>(schema: S, value: unknown, heading = 'Invalid definition, nothing was stored'): z.output<S> {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const lines = zodIssueLines(parsed.error.issues, '(input)', (keys) => `unknown field(s) ${keys.join(', ')}`);
  throw new CliExit(`${heading}:\n${lines.join('\n')}`, EXIT_USAGE);
}
