import { promises as fs } from 'node:fs';
import * as path from 'node:path';

import { tool } from '@langchain/core/tools';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';

import { WorkspaceToolError, toWorkspaceToolError } from './errors';
import { capHeadTail } from './output-cap';
import { VIRTUAL_ROOT, VIRTUAL_WORKSPACE } from './thread-workspace';
import type { ThreadWorkspace } from './thread-workspace';

/**
 * A read-only folder the agent may read outside `/mnt/user-data` (e.g. skills under `/mnt/skills`).
 * `resolve` maps a virtual path under `prefix` to a host path, refusing anything that escapes.
 */
export interface ReadOnlyMount {
  readonly prefix: string;
  resolve(virtualPath: string): Promise<string>;
}

/** Settings shared by the file tools. */
export interface FileToolOptions {
  workspace: ThreadWorkspace;
  max_output_chars: number;
  /**
   * Largest file `read_file` and `str_replace` load (`sandbox.max_file_bytes`): both read the whole
   * file into memory, so a huge file would exhaust the worker rather than fail the tool call.
   */
  max_file_bytes: number;
  /** Extra folders `read_file` may read; writes never reach them. */
  readOnlyMounts?: readonly ReadOnlyMount[];
}

/** Entries `ls` prints before it stops. */
export const LS_MAX_ENTRIES = 500;
const LS_DEPTH = 2;
// Listed but never expanded: they dwarf everything else and are rarely what the agent wants.
const LS_NO_DESCEND = new Set(['.git', 'node_modules', '__pycache__', '.venv', 'venv', '.mypy_cache']);

const pathField = z
  .string()
  .describe(`Absolute path under ${VIRTUAL_ROOT}, or a path relative to ${VIRTUAL_WORKSPACE} (e.g. ../uploads/input.csv).`);

// The tools are built per task; their schemas once.
const lsSchema = z.object({ path: pathField });
const readFileSchema = z.object({
  path: pathField,
  start_line: z.number().int().min(1).optional().describe('First line to return, 1-based (default 1).'),
  end_line: z.number().int().min(1).optional().describe('Last line to return, inclusive (default: end of file).'),
});
const writeFileSchema = z.object({
  path: pathField,
  content: z.string().describe('The text to write.'),
  append: z.boolean().optional().describe('Append to the end of the file instead of overwriting (default false).'),
});
const strReplaceSchema = z.object({
  path: pathField,
  old_str: z.string().describe('The exact text to replace, including whitespace.'),
  new_str: z.string().describe('The replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence (default false).'),
});

/** Runs `body` with the resolved host path, converting fs errors into messages naming the virtual path. */
async function withPath<T>(
  ws: ThreadWorkspace,
  agentPath: string,
  body: (host: string, virtual: string) => Promise<T>,
  mounts: readonly ReadOnlyMount[] = [],
): Promise<T> {
  const mount = mounts.find((m) => path.posix.normalize(agentPath).startsWith(`${m.prefix}/`));
  const host = mount ? await mount.resolve(agentPath) : await ws.resolve(agentPath);
  const virtual = mount ? path.posix.normalize(agentPath) : ws.toVirtual(host);
  try {
    return await body(host, virtual);
  } catch (err) {
    throw toWorkspaceToolError(err, virtual);
  }
}

/**
 * Reads a whole regular file after checking its size, so an oversized file is refused before any
 * byte is loaded.
 * @throws WorkspaceToolError `FILE_TOO_LARGE` naming the virtual path, the size and the limit;
 *   `NOT_A_FILE` for a directory or other non-regular file.
 */
async function readBounded(host: string, virtual: string, maxBytes: number): Promise<Buffer> {
  const handle = await fs.open(host, 'r');
  try {
    // fstat the open handle, not the path, so a file swapped in between cannot dodge the check.
    const stat = await handle.stat();
    if (stat.isDirectory()) throw new WorkspaceToolError('NOT_A_FILE', `Is a directory, not a file: ${virtual}`);
    if (!stat.isFile()) throw new WorkspaceToolError('NOT_A_FILE', `Not a regular file: ${virtual}`);
    if (stat.size > maxBytes) {
      throw new WorkspaceToolError(
        'FILE_TOO_LARGE',
        `${virtual} is ${stat.size} bytes, larger than the ${maxBytes}-byte limit (sandbox.max_file_bytes); ` +
          'inspect it another way (e.g. bash with head/grep when available) or split it',
      );
    }
    // Bounded even if the file grows after the stat: read at most maxBytes + 1 and refuse past the limit.
    const buf = Buffer.alloc(Math.min(stat.size, maxBytes) + 1);
    let length = 0;
    while (length < buf.length) {
      const { bytesRead } = await handle.read(buf, length, buf.length - length, length);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) {
      throw new WorkspaceToolError('FILE_TOO_LARGE', `${virtual} is larger than the ${maxBytes}-byte limit (sandbox.max_file_bytes)`);
    }
    return buf.subarray(0, length);
  } finally {
    await handle.close();
  }
}

/** Creates the `ls` tool: a two-level listing of a directory, as virtual paths. */
export function createLsTool({ workspace, max_output_chars }: FileToolOptions): StructuredToolInterface {
  return tool(
    async ({ path: agentPath }): Promise<string> =>
      withPath(workspace, agentPath, async (host, virtual) => {
        const stat = await fs.stat(host);
        if (!stat.isDirectory()) throw new WorkspaceToolError('NOT_A_DIRECTORY', `Not a directory: ${virtual}`);
        const lines: string[] = [];
        const complete = await listTree(host, virtual, 1, lines);
        if (lines.length === 0) return `${virtual}/ is empty`;
        if (!complete) lines.push(`[listing stopped at ${LS_MAX_ENTRIES} entries; list a subdirectory to see more]`);
        return capHeadTail(lines.join('\n'), max_output_chars);
      }),
    {
      name: 'ls',
      description:
        'List the contents of a directory up to 2 levels deep, one virtual path per line; directories end with "/".',
      schema: lsSchema,
    },
  );
}

/** Depth-first listing into `lines`; false once the entry cap was hit. */
async function listTree(hostDir: string, virtualDir: string, depth: number, lines: string[]): Promise<boolean> {
  const entries = (await fs.readdir(hostDir, { withFileTypes: true })).sort((a, b) => a.name.localeCompare(b.name));
  for (const entry of entries) {
    if (lines.length >= LS_MAX_ENTRIES) return false;
    const virtual = `${virtualDir}/${entry.name}`;
    if (entry.isSymbolicLink()) {
      lines.push(`${virtual} (symlink)`);
    } else if (entry.isDirectory()) {
      const expand = depth < LS_DEPTH && !LS_NO_DESCEND.has(entry.name);
      lines.push(`${virtual}/${!expand && depth < LS_DEPTH ? ' (not expanded)' : ''}`);
      if (expand && !(await listTree(path.join(hostDir, entry.name), virtual, depth + 1, lines))) return false;
    } else {
      lines.push(virtual);
    }
  }
  return true;
}

/** Creates the `read_file` tool: a text file, optionally a 1-based inclusive line range. */
export function createReadFileTool({ workspace, max_output_chars, max_file_bytes, readOnlyMounts = [] }: FileToolOptions): StructuredToolInterface {
  return tool(
    async ({ path: agentPath, start_line, end_line }): Promise<string> =>
      withPath(workspace, agentPath, async (host, virtual) => {
        const buf = await readBounded(host, virtual, max_file_bytes);
        if (buf.subarray(0, 8192).includes(0)) {
          throw new WorkspaceToolError('BINARY_FILE', `${virtual} looks like a binary file; read_file only reads text`);
        }
        const lines = buf.toString('utf8').split('\n');
        const endsWithNewline = lines.length > 1 && lines[lines.length - 1] === '';
        if (endsWithNewline) lines.pop();
        const total = buf.length === 0 ? 0 : lines.length;
        const start = start_line ?? 1;
        const end = Math.min(end_line ?? total, total);
        if (end_line !== undefined && end_line < start) {
          throw new WorkspaceToolError('INVALID_ARGUMENT', `end_line (${end_line}) is before start_line (${start})`);
        }
        if (total === 0 && start === 1) return '(empty file)';
        if (start > total) throw rangePastEnd(virtual, start, total);
        // Keep the final newline when the range reaches the end, so read-then-write round-trips.
        const selected = lines.slice(start - 1, end);
        if (end === total && endsWithNewline) selected.push('');
        return capLines(selected, start, total, max_output_chars);
      }, readOnlyMounts),
    {
      name: 'read_file',
      description: 'Read a text file. Optionally pass start_line/end_line (1-based, inclusive) to read a range.',
      schema: readFileSchema,
    },
  );
}

function rangePastEnd(virtual: string, start: number, total: number): WorkspaceToolError {
  return new WorkspaceToolError('INVALID_ARGUMENT', `start_line ${start} is past the end of ${virtual} (${total} lines)`);
}

/** Joins lines, cutting at a line boundary with a note on where to continue when too long. */
function capLines(lines: readonly string[], start: number, total: number, maxChars: number): string {
  const text = lines.join('\n');
  if (text.length <= maxChars) return text;
  const note = (last: number): string =>
    `\n\n[output truncated at ${maxChars} chars: showed lines ${start}-${last} of ${total}; ` +
    `continue with start_line=${last + 1}]`;
  const budget = Math.max(0, maxChars - note(total).length);
  const cutAt = text.lastIndexOf('\n', budget);
  const shown = cutAt > 0 ? text.slice(0, cutAt) : text.slice(0, budget);
  const newlines = shown.split('\n').length - 1;
  // Without a newline in budget, line `start` itself is partial and must be read again.
  const lastFull = cutAt > 0 ? start + newlines : start - 1;
  return shown + note(lastFull);
}

/** Creates the `write_file` tool: writes or appends text, creating parent folders. */
export function createWriteFileTool({ workspace }: FileToolOptions): StructuredToolInterface {
  return tool(
    async ({ path: agentPath, content, append }): Promise<string> =>
      withPath(workspace, agentPath, async (host, virtual) => {
        await fs.mkdir(path.dirname(host), { recursive: true });
        if (append === true) await fs.appendFile(host, content, 'utf8');
        else await fs.writeFile(host, content, 'utf8');
        return `OK: ${append === true ? 'appended' : 'wrote'} ${content.length} chars to ${virtual}`;
      }),
    {
      name: 'write_file',
      description:
        'Write text to a file, creating parent folders. Overwrites unless append is true; for long files write the ' +
        'first part, then append the rest section by section.',
      schema: writeFileSchema,
    },
  );
}

/** Creates the `str_replace` tool: exact-text replacement in an existing file. */
export function createStrReplaceTool({ workspace, max_file_bytes }: FileToolOptions): StructuredToolInterface {
  return tool(
    async ({ path: agentPath, old_str, new_str, replace_all }): Promise<string> =>
      withPath(workspace, agentPath, async (host, virtual) => {
        if (old_str === '') throw new WorkspaceToolError('INVALID_ARGUMENT', 'old_str must not be empty');
        const text = (await readBounded(host, virtual, max_file_bytes)).toString('utf8');
        const parts = text.split(old_str);
        const count = parts.length - 1;
        if (count === 0) throw new WorkspaceToolError('NO_MATCH', `old_str was not found in ${virtual}`);
        if (count > 1 && replace_all !== true) {
          throw new WorkspaceToolError(
            'AMBIGUOUS_MATCH',
            `old_str occurs ${count} times in ${virtual}; add surrounding context to make it unique, or set replace_all to true`,
          );
        }
        // split/join rather than String.replace, whose `$&`-style patterns would corrupt new_str.
        await fs.writeFile(host, parts.join(new_str), 'utf8');
        return `OK: replaced ${count} occurrence${count === 1 ? '' : 's'} in ${virtual}`;
      }),
    {
      name: 'str_replace',
      description:
        'Replace an exact substring in a file. old_str must occur exactly once unless replace_all is true.',
      schema: strReplaceSchema,
    },
  );
}
