import { Command, type Option } from 'commander';
import { TaskNotCancellableError } from '../client';
import { leadRunWorkflowId } from '../workflows/lead-run-messages';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { startRuntime } from './runtime';

/**
 * `deerflow task cancel --thread T RUN TASK`: cancels one running task of a live lead run (update
 * `cancelTask`); the run and its other tasks go on. A run lives on the cluster that runs it, so this
 * needs `TEMPORAL_ADDRESS` (an embedded dev server of another process cannot be reached).
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
      const loaded = loadCliConfig(opts.config);
      if (loaded.config.temporal.address === null) {
        throw new CliExit('deerflow task needs TEMPORAL_ADDRESS (or temporal.address): the run lives on the cluster that runs it', EXIT_USAGE);
      }
      const runtime = await startRuntime({ loaded, withWorkers: false, log: (line) => process.stderr.write(`${line}\n`) });
      try {
        const ended = await runtime.deerflow.cancelTask(leadRunWorkflowId(opts.thread, runId), taskId);
        process.stdout.write(`task ${ended.taskId} of run ${runId}: ${ended.status}\n`);
        setExitCode(0);
      } catch (err) {
        if (err instanceof TaskNotCancellableError) throw new CliExit(err.message, EXIT_USAGE);
        throw err;
      } finally {
        await runtime.stop();
      }
    });
  return task;
}
