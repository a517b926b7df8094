import { Command, type Option } from 'commander';
import { leadRunWorkflowId, TaskNotCancellableError } from '../client';
import { withClusterRuntime } from './cluster-runtime';
import { CliExit, EXIT_USAGE } from './load-cli-config';
import type { Runtime } from './runtime';

/**
 * `deerflow task cancel|extend --thread T RUN TASK ...`: acts on one running task of a live lead run
 * (updates `cancelTask`, `extendTask`); the run and its other tasks go on. A run lives on the
 * cluster that runs it, so this needs `TEMPORAL_ADDRESS` (another process's embedded server is out of reach).
 */
export function taskCommand(config: Option, setExitCode: (code: number) => void): Command {
  const task = new Command('task').description('act on one task of a live lead run');
  task
    .command('cancel')
    .description('cancel one running task; the run and its other tasks go on')
    .argument('<run>', 'run id')
    .argument('<task>', 'task id the run gave the task (e.g. 0.1)')
    .requiredOption('--thread <id>', 'the thread of the run')
    .addOption(config)
    .action(async (runId: string, taskId: string, opts: { thread: string; config?: string }) => {
      await withTaskRuntime(opts.config, async (runtime) => {
        const ended = await runtime.deerflow.cancelTask(leadRunWorkflowId(opts.thread, runId), taskId);
        process.stdout.write(`task ${ended.taskId} of run ${runId}: ${ended.status}\n`);
      });
      setExitCode(0);
    });
  task
    .command('extend')
    .description("move one running task's deadline by SECONDS (up to subagent_runtime.max_task_extension_seconds in total)")
    .argument('<run>', 'run id')
    .argument('<task>', 'task id the run gave the task (e.g. 0.1)')
    .argument('<seconds>', 'seconds to add')
    .requiredOption('--thread <id>', 'the thread of the run')
    .addOption(config)
    .action(async (runId: string, taskId: string, rawSeconds: string, opts: { thread: string; config?: string }) => {
      const seconds = Number(rawSeconds);
      if (!Number.isInteger(seconds) || seconds < 1) throw new CliExit(`seconds: must be a whole number of seconds, at least 1 (got ${rawSeconds})`, EXIT_USAGE);
      await withTaskRuntime(opts.config, async (runtime) => {
        const extended = await runtime.deerflow.extendTask(leadRunWorkflowId(opts.thread, runId), taskId, seconds);
        process.stdout.write(`task ${extended.taskId} of run ${runId}: timeout now ${extended.timeoutSeconds} s (extended by ${extended.extendedSeconds} s in total)\n`);
      });
      setExitCode(0);
    });
  return task;
}

/** Runs `act` on the configured cluster; a refused task update is a usage error (exit 2). */
async function withTaskRuntime(configPath: string | undefined, act: (runtime: Runtime) => Promise<void>): Promise<void> {
  try {
    await withClusterRuntime('deerflow task', configPath, act);
  } catch (err) {
    if (err instanceof TaskNotCancellableError) throw new CliExit(err.message, EXIT_USAGE);
    throw err;
  }
}
