import { WorkflowNotFoundError } from '@temporalio/client';
import { Command, type Option } from 'commander';
import { leadRunStateQuery, leadRunWorkflowId } from '../client';
import { RunShowJsonOutputSchema, RunsListJsonOutputSchema, type LeadRunState, type RunsListEntry } from '../contracts';
import { withClusterRuntime } from './cluster-runtime';
import { CliExit, EXIT_USAGE } from './load-cli-config';
import { leadRunsQuery } from './runs-query';
import { runsListEntry, runsListLine } from './runs-list-entry';

const DEFAULT_LIST_LIMIT = 50;

interface ListOptions {
  readonly status?: string;
  readonly user?: string;
  readonly thread?: string;
  readonly limit: string;
  readonly json: boolean;
  readonly config?: string;
}

/**
 * `deerflow runs list|show`: lead runs at a glance, from Temporal visibility (list, filtered by the
 * search attributes every lead run carries) and the run's `state` query (show). Needs `TEMPORAL_ADDRESS`.
 */
export function runsCommand(config: Option, setExitCode: (code: number) => void): Command {
  const runs = new Command('runs').description('list lead runs and show one (needs TEMPORAL_ADDRESS)');
  runs
    .command('list')
    .description('lead runs on the cluster, as Temporal visibility orders them, filtered by status, user and thread')
    .option('--status <status>', 'DeerflowRunStatus: running, waiting_for_answer, completed, failed, cancelled, timed_out, needs_input')
    .option('--user <id>', 'the runs of this user')
    .option('--thread <id>', 'the runs of this thread')
    .option('--limit <n>', 'at most this many runs', String(DEFAULT_LIST_LIMIT))
    .option('--json', 'print one JSON object { runs: [...] }', false)
    .addOption(config)
    .action(async (opts: ListOptions) => {
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new CliExit(`--limit: must be a whole number, at least 1 (got ${opts.limit})`, EXIT_USAGE);
      // Validated before connecting: a bad filter is a usage error whatever the cluster says.
      const query = leadRunsQuery(opts);
      await withClusterRuntime('deerflow runs', opts.config, async (runtime) => {
        const entries: RunsListEntry[] = [];
        for await (const execution of runtime.temporal.workflow.list({ query })) {
          entries.push(runsListEntry(execution));
          if (entries.length >= limit) break;
        }
        if (opts.json) process.stdout.write(`${JSON.stringify(RunsListJsonOutputSchema.parse({ runs: entries }))}\n`);
        else process.stdout.write(entries.length === 0 ? 'no lead runs match\n' : `${entries.map(runsListLine).join('\n')}\n`);
      });
      setExitCode(0);
    });
  runs
    .command('show')
    .description("one lead run's live state: status, turn, tasks, usage, final message")
    .argument('<run>', 'run id')
    .requiredOption('--thread <id>', 'the thread of the run')
    .option('--json', 'print one JSON object { workflow_id, execution_status, state }', false)
    .addOption(config)
    .action(async (runId: string, opts: { thread: string; json: boolean; config?: string }) => {
      const workflowId = leadRunWorkflowId(opts.thread, runId);
      await withClusterRuntime('deerflow runs', opts.config, async (runtime) => {
        const handle = runtime.temporal.workflow.getHandle(workflowId);
        let executionStatus: string;
        let state: LeadRunState;
        try {
          executionStatus = (await handle.describe()).status.name;
          state = await handle.query(leadRunStateQuery);
        } catch (err) {
          if (err instanceof WorkflowNotFoundError) throw new CliExit(`no run ${runId} in thread ${opts.thread}`, 1);
          throw err;
        }
        const output = RunShowJsonOutputSchema.parse({ workflow_id: workflowId, execution_status: executionStatus, state });
        process.stdout.write(opts.json ? `${JSON.stringify(output)}\n` : `${runStateLines(output.workflow_id, output.execution_status, output.state).join('\n')}\n`);
      });
      setExitCode(0);
    });
  return runs;
}

/** `runs show` as text: the run, then one line per task and per direct tool call. */
function runStateLines(workflowId: string, executionStatus: string, state: LeadRunState): string[] {
  const usage = state.leadUsage === null ? 'none reported' : `${state.leadUsage.total_tokens} (${state.leadUsage.input_tokens} in, ${state.leadUsage.output_tokens} out)`;
  return [
    `run ${state.runId} in thread ${state.threadId} (${workflowId}): ${state.status}, execution ${executionStatus}, turn ${state.turn}`,
    ...(state.stopReason === null ? [] : [`stop reason: ${state.stopReason}`]),
    `lead tokens: ${usage}`,
    `tasks: ${state.tasks.length}`,
    ...state.tasks.map((t) => `  ${t.taskId}  ${t.subagent}: ${t.description}  ${t.status}${t.stopReason ? ` (${t.stopReason})` : ''}${t.error ? `  error: ${t.error}` : ''}`),
    ...state.leadTools.map((call) => `  ${call.callId}  ${call.tool}  ${call.status}${call.error ? `  error: ${call.error}` : ''}`),
    ...(state.question === null ? [] : [`waiting for an answer to: ${state.question.text}`]),
    ...(state.finalMessageBrief === null ? [] : [`final message: ${state.finalMessageBrief}`]),
    ...(state.error === null ? [] : [`error: ${state.error}`]),
  ];
}
