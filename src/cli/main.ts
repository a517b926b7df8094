import { Command, Option } from 'commander';
import { isAgentDefinitionError } from '../store';
import { CliExit, EXIT_USAGE, loadCliConfig } from './load-cli-config';
import { agentsCommand } from './agents-command';
import { batchCommand } from './batch-command';
import { eventsCommand } from './events-command';
import { promptCommand } from './prompt-command';
import { replayCommand } from './replay-command';
import { runCommand } from './run-command';
import { runsCommand } from './runs-command';
import { serveCommand } from './serve-command';
import { startCommand } from './start-command';
import { taskCommand } from './task-command';
import { toolsCommand } from './tools-command';
import { workerCommand } from './worker-command';
import { installCliRuntime } from './install-cli-runtime';
import { WORKER_QUEUES, type WorkerQueues } from '../worker/create-workers';

function buildProgram(setExitCode: (code: number) => void): Command {
  const program = new Command('deerflow')
    .description('Durable lead-agent/subagent delegation on Temporal')
    .showHelpAfterError()
    // The runtime follows the command's config (log format, metrics), so it is installed once that is known.
    .hook('preAction', (_program, action) => installCliRuntime(action.name(), action.opts<{ config?: string }>().config));
  const config = new Option('-c, --config <file>', 'config file (default: $DEERFLOW_CONFIG or ./config.yaml)');

  program
    .command('start')
    .description('run the demo on the embedded Temporal dev server (or TEMPORAL_ADDRESS)')
    .addOption(config)
    .option('--wait', 'keep the embedded server and Web UI running after the demo, until Ctrl-C', false)
    .action(async (opts: { config?: string; wait: boolean }) =>
      setExitCode(await startCommand(loadCliConfig(opts.config), { wait: opts.wait })),
    );

  program
    .command('run')
    .description('start a lead run and wait for it')
    .argument('<message>', 'the user message')
    .addOption(config)
    .option('--model <name>', 'configured model to use')
    .option('--thread <id>', 'thread to continue (default: a new thread)')
    .option('--user <id>', 'user id', 'default')
    .option('--agent <name>', 'lead agent definition from config')
    .option('--json', 'print one JSON object (see SCRIPTED_MODEL.md)', false)
    .action(async (message: string, opts: { config?: string; model?: string; thread?: string; user?: string; agent?: string; json: boolean }) =>
      setExitCode(await runCommand(loadCliConfig(opts.config), message, opts)),
    );

  program
    .command('worker')
    .description('run a long-lived worker (every task queue by default) against TEMPORAL_ADDRESS')
    .addOption(config)
    .addOption(new Option('--queues <which>', 'task queues to serve (subagents: the subagent and batch item queues)').choices(WORKER_QUEUES).default('all'))
    .action(async (opts: { config?: string; queues: WorkerQueues }) =>
      setExitCode(await workerCommand(loadCliConfig(opts.config), opts.queues)),
    );

  program.addCommand(promptCommand(config));
  program.addCommand(batchCommand(config, setExitCode));
  program.addCommand(eventsCommand(config));
  program.addCommand(serveCommand(config));
  program.addCommand(agentsCommand());
  program.addCommand(taskCommand(config, setExitCode));
  program.addCommand(toolsCommand(config));
  program.addCommand(runsCommand(config, setExitCode));
  program.addCommand(replayCommand(config, setExitCode));
  return program;
}

/** Runs the CLI with `argv` and resolves to the process exit code. */
export async function main(argv: readonly string[]): Promise<number> {
  let exitCode = 0;
  try {
    await buildProgram((code) => (exitCode = code)).parseAsync([...argv]);
    return exitCode;
  } catch (err) {
    if (err instanceof CliExit) {
      process.stderr.write(`${err.message}\n`);
      return err.exitCode;
    }
    if (isAgentDefinitionError(err)) {
      process.stderr.write(`${err.message}\n`);
      return EXIT_USAGE;
    }
    process.stderr.write(`deerflow: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}

if (require.main === module) {
  void main(process.argv).then((code) => process.exit(code));
}
