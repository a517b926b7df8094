import { tool } from '@langchain/core/tools';
import type { StructuredToolInterface } from '@langchain/core/tools';
import { z } from 'zod';

import { runShellCommand } from './run-command';
import type { RunShellCommandResult } from './run-command';
import { VIRTUAL_ROOT } from './thread-workspace';
import type { ThreadWorkspace } from './thread-workspace';

/** Settings of the `bash` tool (the `sandbox` block of config.yaml). */
export interface BashToolOptions {
  workspace: ThreadWorkspace;
  bash_timeout_seconds: number;
  max_output_chars: number;
}

const FALLBACK_PATH = '/usr/local/bin:/usr/bin:/bin';
// Only whole `/mnt/user-data` segments, so `/mnt/user-data-old` is left alone.
const VIRTUAL_ROOT_PATTERN = /\/mnt\/user-data(?=\/|$|[^\w.-])/g;

const bashSchema = z.object({
  command: z
    .string()
    .min(1)
    .describe(
      `The bash command to run. Working directory is ${VIRTUAL_ROOT}/workspace; refer to files with ` +
        `relative paths or absolute ${VIRTUAL_ROOT}/... paths.`,
    ),
  description: z.string().optional().describe('Why you are running this command, in a few words.'),
});

/** Creates the `bash` tool: runs a command on the host, in the thread's workspace folder. */
export function createBashTool(options: BashToolOptions): StructuredToolInterface {
  const { workspace } = options;
  return tool(
    async ({ command }, config): Promise<string> => {
      const signal = config.signal;
      signal?.throwIfAborted();
      await workspace.ensureFolders();
      const hostCommand = command.replace(VIRTUAL_ROOT_PATTERN, () => workspace.hostRoot);
      const result = await runShellCommand({
        command: hostCommand,
        cwd: workspace.hostWorkspace,
        // Only these three: the worker's own environment holds API keys and database URLs, which a
        // command (or a prompt-injected agent) must not be able to read.
        env: {
          PATH: process.env['PATH'] ?? FALLBACK_PATH,
          HOME: workspace.hostWorkspace,
          LANG: process.env['LANG'] ?? 'C.UTF-8',
        },
        timeoutMs: options.bash_timeout_seconds * 1000,
        outputLimit: options.max_output_chars,
        signal,
      });
      if (result.aborted) {
        signal?.throwIfAborted();
        throw new Error('bash command was aborted');
      }
      return formatResult(result, options, await workspace.textVirtualizer());
    },
    {
      name: 'bash',
      description:
        `Execute a bash command in ${VIRTUAL_ROOT}/workspace (uploads in ${VIRTUAL_ROOT}/uploads, ` +
        `deliverables go to ${VIRTUAL_ROOT}/outputs). Returns stdout and stderr interleaved, ` +
        `the exit code when it is not 0, and is stopped after ${options.bash_timeout_seconds} s. ` +
        `Long output is truncated in the middle.`,
      schema: bashSchema,
    },
  );
}

function formatResult(
  result: RunShellCommandResult,
  options: BashToolOptions,
  virtualize: (text: string) => string,
): string {
  let status = '';
  if (result.timedOut) {
    status = `[timed out after ${options.bash_timeout_seconds} s; the command and its child processes were killed]`;
  } else if (result.exitSignal !== null) {
    status = `[killed by signal ${result.exitSignal}]`;
  } else if (result.exitCode !== null && result.exitCode !== 0) {
    status = `[exit code ${result.exitCode}]`;
  }
  const room = Math.max(0, options.max_output_chars - (status === '' ? 0 : status.length + 1));
  const body = result.output.totalChars === 0 ? '' : result.output.render(room, virtualize);
  if (body === '') return status === '' ? '(no output)' : status;
  if (status === '') return body;
  return `${body}${body.endsWith('\n') ? '' : '\n'}${status}`;
}
